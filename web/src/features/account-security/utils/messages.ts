import { ApiError, NetworkError } from '@/lib/api-client';

/** What went wrong, in words, for the account security screens (docs/security.md#account-security-center). */
const API_MESSAGES: Record<string, string> = {
  reauthentication_required: 'For your security, enter your current password to add a passkey.',
  invalid_current_password: 'The current password is not correct.',
  invalid_challenge: 'This request expired. Please try again.',
  passkey_verification_failed: 'The passkey could not be verified. Please try again.',
  passkey_exists: 'This passkey is already added to your account.',
  passkey_limit_reached: 'You have reached the maximum number of passkeys. Remove one to add another.',
  passkey_not_found: 'This passkey no longer exists.',
  session_not_found: 'This session has already ended.',
  invalid_credentials: 'This passkey is not recognized. Sign in with your email and password.',
  account_locked: 'Your account is locked. Please contact support.',
  email_not_verified: 'Please verify your email before logging in.',
  throttled: 'Too many attempts. Please wait and try again.',
  invalid_request: 'Please check the name: 1 to 64 characters.',
};

export function securityErrorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  if (error instanceof ApiError) return (error.code && API_MESSAGES[error.code]) || fallback;
  if (error instanceof NetworkError) return 'Unable to reach the server. Check your connection and try again.';
  const name = (error as { name?: string } | null)?.name;
  // The browser's own refusals: the person closed the dialog, or the device has no passkey support.
  if (name === 'NotAllowedError' || name === 'AbortError') return 'The passkey request was cancelled or timed out.';
  if (name === 'InvalidStateError') return 'This device already holds a passkey for your account.';
  if (error instanceof Error && /not supported/i.test(error.message)) return 'This browser does not support passkeys.';
  return fallback;
}

/** The confirmation itself was refused (wrong password, a passkey that did not verify, an old challenge): ask again. */
export function isRefusedConfirmation(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    ['invalid_current_password', 'passkey_verification_failed', 'invalid_challenge', 'throttled'].includes(error.code ?? '')
  );
}
