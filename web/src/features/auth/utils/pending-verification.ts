/**
 * The address waiting for its verification code, kept for this tab only (sessionStorage): the
 * verify step survives a reload without putting an email address in the URL (docs/product.md#10-journeys).
 */
const KEY = 'career.pendingVerificationEmail';

export function readPendingEmail(): string {
  try {
    return sessionStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

export function storePendingEmail(email: string): void {
  try {
    if (email) sessionStorage.setItem(KEY, email);
    else sessionStorage.removeItem(KEY);
  } catch {
    // Storage blocked (private mode): the step still works until a reload.
  }
}
