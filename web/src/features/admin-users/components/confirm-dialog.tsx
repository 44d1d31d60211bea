import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type SyntheticEvent,
} from 'react';

export interface ConfirmRequest {
  title: string;
  /** What will happen, in plain words: the consequence, not just "Are you sure?". */
  consequence: ReactNode;
  confirmLabel: string;
}

/**
 * One in-app confirmation for every destructive drawer action (replacing the browser's native
 * confirm, which cannot say much and looks foreign). `confirm(request)` resolves true/false;
 * render `dialog` inside the drawer (its Escape then stays with the confirmation).
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

/**
 * A native <dialog> opened with showModal(), like the drawer it opens in: the browser puts it
 * above the drawer, makes everything else inert and keeps Tab on its buttons. Escape and a click
 * on the backdrop answer "no"; focus then returns to the button that asked.
 */
function ConfirmDialog({ request, onClose }: { request: ConfirmRequest; onClose: (ok: boolean) => void }) {
  const titleId = useId();
  const bodyId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const element = dialog.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (element && !element.open) element.showModal();
    // Cancel is the safe default under the keyboard.
    cancelRef.current?.focus();
    return () => {
      if (element?.open) element.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  // Escape answers this dialog only, not the drawer around it: handled here and kept from the
  // drawer's own Escape handling (the keydown in every browser and jsdom, the cancel event elsewhere).
  const onCancel = (event: SyntheticEvent) => {
    event.preventDefault();
    event.stopPropagation();
    onClose(false);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    onClose(false);
  };
  // The dialog element itself is hit only outside the box: on the backdrop.
  const onClick = (event: MouseEvent) => {
    if (event.target === event.currentTarget) onClose(false);
  };

  return (
    // Escape is the keyboard path; the backdrop click is a pointer's extra.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={dialog}
      className="admin-confirm"
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={onCancel}
      onKeyDown={onKeyDown}
      onClick={onClick}
    >
      <div className="admin-confirm__box">
        <h3 id={titleId}>{request.title}</h3>
        <div id={bodyId} className="admin-confirm__body">
          {request.consequence}
        </div>
        <div className="admin-actions">
          <button type="button" className="button button--danger" onClick={() => onClose(true)}>
            {request.confirmLabel}
          </button>
          <button ref={cancelRef} type="button" className="button button--secondary" onClick={() => onClose(false)}>
            Cancel
          </button>
        </div>
      </div>
    </dialog>
  );
}
