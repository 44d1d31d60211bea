import type { Ref } from 'react';
import { CODE_LENGTH } from '@shared/constants';
import { TextField } from '@/components/ui/text-field';

interface CodeFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
  ref?: Ref<HTMLInputElement>;
}

/**
 * Pasted text as people copy it ("957 831", "957-831", " 957831\n"): everything but digits goes
 * first, then the length limit applies, so the separators never push out the last digit.
 */
export const normalizeCode = (raw: string) => raw.replace(/\D/g, '').slice(0, CODE_LENGTH);

/**
 * A 6-digit emailed code: numeric keypad on phones, the browser may fill it from the message
 * (one-time-code), and anything but digits is dropped as it is typed or pasted. No `maxLength`
 * on the input: the browser would cut a pasted "957 831" to "957 83" before we could clean it.
 */
export function CodeField({ label, value, onChange, error, hint, ref }: CodeFieldProps) {
  return (
    <TextField
      ref={ref}
      label={label}
      name="code"
      value={value}
      onChange={(event) => onChange(normalizeCode(event.target.value))}
      inputMode="numeric"
      pattern={`[0-9]{${CODE_LENGTH}}`}
      autoComplete="one-time-code"
      required
      error={error}
      hint={hint}
    />
  );
}
