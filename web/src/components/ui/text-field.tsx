import { useId, type InputHTMLAttributes, type Ref } from 'react';
import { describedBy, FieldMessages } from './field-messages';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  /** Visible label text; always rendered, so every input has an accessible name. */
  label: string;
  /** Shown under the input, linked with aria-describedby, and marks the input aria-invalid. */
  error?: string;
  /** A short help line under the input, also linked with aria-describedby. */
  hint?: string;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input with an optional hint and error. Every other input prop passes through. */
export function TextField({ label, error, hint, className, ref, ...input }: TextFieldProps) {
  const id = useId();
  return (
    <div className={['field', className].filter(Boolean).join(' ')}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <input
        ref={ref}
        id={id}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        {...input}
      />
      <FieldMessages id={id} hint={hint} error={error} />
    </div>
  );
}
