import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { useDeferredValue, useMemo } from 'react';
import { MIN_PASSWORD_LENGTH } from '@shared/constants';
import { COMMON_PASSWORD } from '../utils/error-messages';

/**
 * The live strength hint under a new password. Loaded only when someone starts typing one (see
 * lazy-password-strength.tsx): the dictionaries weigh far more than the rest of a learner page.
 */
const zxcvbn = new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });

/** The same list and cut-off the server refuses with `common_password` (functions/accounts/passwords.ts). */
const COMMON_COUNT = 10_000;
const common = new Set(dictionary['passwords-common'].slice(0, COMMON_COUNT).map((p) => p.toLowerCase()));

const LABELS = ['Very weak', 'Weak', 'Fair', 'Good', 'Strong'] as const;

export interface StrengthView {
  score: 0 | 1 | 2 | 3 | 4;
  label: string;
  advice: string | null;
}

export function strengthOf(password: string, userInputs: string[] = []): StrengthView {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    return { score: 0, label: LABELS[0], advice: `Use at least ${MIN_PASSWORD_LENGTH} characters.` };
  }
  if (common.has(password.toLowerCase())) return { score: 0, label: LABELS[0], advice: COMMON_PASSWORD };
  const { score } = zxcvbn.check(password, userInputs.filter(Boolean));
  const advice = score < 3 ? 'Longer is stronger: try a few unrelated words.' : null;
  return { score, label: LABELS[score], advice };
}

export default function PasswordStrength({ password, userInputs = [] }: { password: string; userInputs?: string[] }) {
  // Typing stays fluid: the estimate may lag a keystroke behind.
  const deferred = useDeferredValue(password);
  // Keyed on the inputs' text, not the array: callers pass a new array on every render.
  const inputsKey = userInputs.join('\u0000');
  const view = useMemo(() => strengthOf(deferred, inputsKey.split('\u0000')), [deferred, inputsKey]);
  return (
    <div className="strength" data-score={view.score}>
      <meter className="strength__meter" min={0} max={4} low={2} high={3} optimum={4} value={view.score} aria-label="Password strength" />
      <p className="strength__text" aria-live="polite">
        Password strength: {view.label}.{view.advice ? ` ${view.advice}` : ''}
      </p>
    </div>
  );
}
