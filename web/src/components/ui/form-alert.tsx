import type { ReactNode } from 'react';

export interface FormAlertProps {
  /** 'error' is announced at once (role="alert"); 'success' and 'info' politely (role="status"). */
  tone?: 'error' | 'success' | 'info';
  children: ReactNode;
  id?: string;
}

/**
 * Focus was lost (on the body, or on a control that got disabled: the busy button of a request):
 * the error takes it, after the click's own updates settle. A stable ref callback, so it runs
 * when the message appears, never on a re-render.
 */
const focusIfLost = (element: HTMLDivElement | null) => {
  if (element)
    requestAnimationFrame(() => {
      const active = document.activeElement as (HTMLElement & { disabled?: boolean }) | null;
      if (!active || active === document.body || active.disabled) element.focus();
    });
};

/**
 * A message box for a whole form or page. Renders nothing without children. An error that shows
 * while focus is lost takes the focus, so keyboard and screen-reader users land on it rather
 * than at the top of the page (docs/product.md#1010-accessibility-and-focus); it never takes focus from a field or button
 * the person is using.
 */
export function FormAlert({ tone = 'error', children, id }: FormAlertProps) {
  if (children === null || children === undefined || children === false || children === '') return null;
  return (
    <div
      id={id}
      ref={tone === 'error' ? focusIfLost : undefined}
      tabIndex={-1}
      className={`alert alert--${tone}`}
      role={tone === 'error' ? 'alert' : 'status'}
    >
      {children}
    </div>
  );
}
