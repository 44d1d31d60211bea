import type { ButtonHTMLAttributes, Ref } from 'react';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** 'primary' (filled, default), 'secondary' (outlined) or 'link' (looks like a text link). */
  variant?: 'primary' | 'secondary' | 'link' | 'danger';
  /** To move focus to the button (React 19 passes `ref` as a prop). */
  ref?: Ref<HTMLButtonElement>;
}

/**
 * The app's button. `type` defaults to "button" so a button inside a form never submits by
 * accident; pass `type="submit"` for the form's main action.
 */
export function Button({ variant = 'primary', type = 'button', className, ...rest }: ButtonProps) {
  const classes = ['button', `button--${variant}`, className].filter(Boolean).join(' ');
  return <button type={type} className={classes} {...rest} />;
}
