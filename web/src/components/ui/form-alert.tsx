import type { ReactNode } from 'react';

export interface FormAlertProps {
  /** 'error' is announced at once (role="alert"); 'success' and 'info' politely (role="status"). */
  tone?: 'error' | 'success' | 'info';
  children: ReactNode;
  id?: string;
}

/** A message box for a whole form or page. Renders nothing without children. */
export function FormAlert({ tone = 'error', children, id }: FormAlertProps) {
  if (children === null || children === undefined || children === false || children === '') return null;
  return (
    <div id={id} className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
