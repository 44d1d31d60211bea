import type { Ref } from 'react';
import { CODE_LENGTH } from '../../../../../shared/constants';
import { TextField } from '../../../components/ui/text-field';

interface CodeFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
  ref?: Ref<HTMLInputElement>;
}

/**
 * A 6-digit emailed code: numeric keypad on phones, the browser may fill it from the message
 * (one-time-code), and anything but digits is dropped as it is typed or pasted.
 */
export function CodeField({ label, value, onChange, error, hint, ref }: CodeFieldProps) {
  return (
    <TextField
      ref={ref}
      label={label}
      name="code"
      value={value}
      onChange={(event) => onChange(event.target.value.replace(/\D/g, '').slice(0, CODE_LENGTH))}
      inputMode="numeric"
      pattern={`[0-9]{${CODE_LENGTH}}`}
      maxLength={CODE_LENGTH}
      autoComplete="one-time-code"
      required
      error={error}
      hint={hint}
    />
  );
}
