import { useId, useState, type InputHTMLAttributes, type Ref } from 'react';
import { describedBy, FieldMessages } from './field-messages';

export interface PasswordFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> {
  label: string;
  error?: string;
  hint?: string;
  ref?: Ref<HTMLInputElement>;
  /**
   * Controlled visibility. Leave both `visible` and `onVisibleChange` out for a field with its own
   * toggle; pass them to share one toggle between fields (e.g. password + confirmation).
   */
  visible?: boolean;
  onVisibleChange?: (visible: boolean) => void;
  /** Hide this field's Show/Hide button (when another field's toggle controls it). */
  hideToggle?: boolean;
  /** Ids of other inputs the toggle also reveals, for aria-controls. */
  alsoControls?: string[];
  /** Fixed id for the input, when another field's toggle must reference it. */
  inputId?: string;
}

/** A labelled password input with a Show/Hide button (aria-pressed tells whether it is shown). */
export function PasswordField({
  label,
  error,
  hint,
  className,
  ref,
  visible,
  onVisibleChange,
  hideToggle,
  alsoControls = [],
  inputId,
  ...input
}: PasswordFieldProps) {
  const generatedId = useId();
  const id = inputId ?? generatedId;
  const [ownVisible, setOwnVisible] = useState(false);
  const shown = visible ?? ownVisible;
  const toggle = () => (onVisibleChange ? onVisibleChange(!shown) : setOwnVisible(!shown));
  return (
    <div className={['field', className].filter(Boolean).join(' ')}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <div className="field__row">
        <input
          ref={ref}
          id={id}
          type={shown ? 'text' : 'password'}
          className="field__input"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, hint, error)}
          autoCapitalize="off"
          spellCheck={false}
          {...input}
        />
        {hideToggle ? null : (
          <button
            type="button"
            className="button button--secondary field__toggle"
            aria-pressed={shown}
            disabled={input.disabled}
            aria-controls={[id, ...alsoControls].join(' ')}
            onClick={toggle}
          >
            {shown ? 'Hide' : 'Show'}
          </button>
        )}
      </div>
      <FieldMessages id={id} hint={hint} error={error} />
    </div>
  );
}
