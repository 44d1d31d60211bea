import { useEffect, useRef, type ReactNode } from 'react';

export interface FormAlertProps {
  /** 'error' is announced at once (role="alert"); 'success' and 'info' politely (role="status"). */
  tone?: 'error' | 'success' | 'info';
  children: ReactNode;
  id?: string;
}

/** Focus was lost: on the body, or on a control that got disabled (the busy button of a request). */
const focusLost = () => {
  const active = document.activeElement as (HTMLElement & { disabled?: boolean }) | null;
  return !active || active === document.body || active.disabled === true;
};

/**
 * A message box for a whole form or page. Renders nothing without children. An error that shows
 * while focus is lost (the request's busy button was disabled) takes the focus, so keyboard and
 * screen-reader users land on it rather than at the top of the page (docs/journeys.md#10); it
 * never takes focus from a field or button the person is using.
 */
export function FormAlert({ tone = 'error', children, id }: FormAlertProps) {
  const ref = useRef<HTMLDivElement>(null);
  const empty = children === null || children === undefined || children === false || children === '';
  const text = typeof children === 'string' ? children : null;
  useEffect(() => {
    if (empty || tone !== 'error') return;
    // after the click's own updates settle (the busy button enables again or stays disabled)
    const frame = requestAnimationFrame(() => {
      if (focusLost()) ref.current?.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [empty, tone, text]);
  if (empty) return null;
  return (
    <div id={id} ref={ref} tabIndex={-1} className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
