import { lazy, Suspense } from 'react';

const PasswordStrength = lazy(() => import('./password-strength'));

/**
 * The strength hint's dictionaries load on the first keystroke in a new-password field, never
 * with the page: learner pages stay within their first-load budget (docs/product.md#10-journeys).
 */
export function LazyPasswordStrength({ password, userInputs }: { password: string; userInputs?: string[] }) {
  if (!password) return null;
  return (
    <Suspense fallback={null}>
      <PasswordStrength password={password} userInputs={userInputs} />
    </Suspense>
  );
}
