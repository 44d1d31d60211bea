import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface ConfirmRequest {
  title: string;
  /** What will happen, in plain words: the consequence, not just "Are you sure?". */
  consequence: ReactNode;
  confirmLabel: string;
}

/**
 * One in-app confirmation for every destructive drawer action (replacing the browser's native
 * confirm, which cannot say much and looks foreign). `confirm(request)` resolves true/false;
 * render `dialog` inside the drawer so the drawer's focus trap includes it.
 */
export function useConfirm() {
  const [request, setRequest] = useState<(ConfirmRequest & { resolve: (ok: boolean) => void }) | null>(null);
  const confirm = useCallback(
    (next: ConfirmRequest) =>
      new Promise<boolean>((resolve) => {
        setRequest({ ...next, resolve });
      }),
    [],
  );
  const close = (ok: boolean) => {
    request?.resolve(ok);
    setRequest(null);
  };
  const dialog = request ? <ConfirmDialog request={request} onClose={close} /> : null;
  return { confirm, dialog };
}

function ConfirmDialog({ request, onClose }: { request: ConfirmRequest; onClose: (ok: boolean) => void }) {
  const titleId = useId();
  const bodyId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const opener = useRef<Element | null>(null);

  useEffect(() => {
    opener.current = document.activeElement;
    // Cancel is the safe default under the keyboard.
    cancelRef.current?.focus();
    const back = opener.current;
    return () => {
      if (back instanceof HTMLElement && back.isConnected) back.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      // Closes this dialog only, not the drawer around it (preventDefault: no native cancel of the drawer's <dialog>).
      event.preventDefault();
      event.stopPropagation();
      onClose(false);
    } else if (event.key === 'Tab') {
      // Tab stays on the dialog's two buttons.
      event.preventDefault();
      event.stopPropagation();
      (document.activeElement === cancelRef.current ? confirmRef : cancelRef).current?.focus();
    }
  };

  return (
    // Escape and Tab bubble here from the dialog's two buttons; the wrapper itself is never focused.
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions
    <div className="admin-confirm" onKeyDown={onKeyDown}>
      <div className="admin-confirm__overlay" aria-hidden="true" onClick={() => onClose(false)} />
      <div className="admin-confirm__box" role="alertdialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={bodyId}>
        <h3 id={titleId}>{request.title}</h3>
        <div id={bodyId} className="admin-confirm__body">
          {request.consequence}
        </div>
        <div className="admin-actions">
          <button ref={confirmRef} type="button" className="button button--danger" onClick={() => onClose(true)}>
            {request.confirmLabel}
          </button>
          <button ref={cancelRef} type="button" className="button button--secondary" onClick={() => onClose(false)}>
            Cancel
          </button>
        </div>
      </div>
    </div>
  );
}
