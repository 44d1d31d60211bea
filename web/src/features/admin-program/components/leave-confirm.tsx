import { useEffect, useRef, type SyntheticEvent } from 'react';
import { Button } from '@/components/ui/button';

/**
 * Asked when an in-app navigation would leave unsaved edits. A native <dialog> opened with
 * showModal(): the browser makes the page behind it inert and keeps Tab on its buttons; focus
 * starts on the safe choice, Escape stays, and focus returns where it was when it closes.
 */
export function LeaveConfirm({ onLeave, onStay }: { onLeave: () => void; onStay: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const stay = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const element = dialog.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (element && !element.open) element.showModal();
    stay.current?.focus();
    return () => {
      if (element?.open) element.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  // Escape: the browser's cancel event (jsdom has none, so the key is read too)
  const onCancel = (event: SyntheticEvent) => {
    event.preventDefault();
    onStay();
  };
  return (
    <dialog
      ref={dialog}
      className="pa-dialog"
      role="alertdialog"
      aria-labelledby="pa-leave-title"
      aria-describedby="pa-leave-text"
      onCancel={onCancel}
      onKeyDown={(event) => event.key === 'Escape' && onCancel(event)}
    >
      <h2 id="pa-leave-title">Leave with unsaved edits?</h2>
      <p id="pa-leave-text">
        Your edits to the program are not saved to the draft. This browser keeps them and offers them back when you return to this page, but
        no other administrator sees them until you save.
      </p>
      <div className="pa-dialog__actions">
        <Button ref={stay} onClick={onStay}>
          Stay and keep editing
        </Button>
        <Button variant="secondary" onClick={onLeave}>
          Leave
        </Button>
      </div>
    </dialog>
  );
}
