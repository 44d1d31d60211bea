// The product's texts (docs/product.md#8-error-catalogue) are written out exactly (they state the limits of shared/constants.ts: 8, 1-100).
import { ApiError } from '@/lib/api-client';

/**
 * Turns API failures into the docs/product.md#8-error-catalogue texts. Known codes map to fixed texts; an unknown code falls
 * back to the server's human `message` when it sent one, else the screen's default text. A raw
 * code like "invalid_request" is never shown to a person.
 */
function serverText(error: unknown, known: Record<string, string>, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  if (error.code && known[error.code]) return known[error.code];
  const message = error.body.message;
  return typeof message === 'string' && message.trim() ? message : fallback;
}

export const THROTTLED = 'Please wait a moment before trying again.';

/** `passkey_required`: an administrator on a stage that requires passkeys tried the password (docs/security.md). */
export const PASSKEY_REQUIRED = 'Administrators sign in with a passkey. Use "Sign in with a passkey".';

export function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 403 && error.body.needsVerification) return 'Please verify your email before logging in.';
    return serverText(
      error,
      { invalid_credentials: 'Invalid email or password.', throttled: THROTTLED, passkey_required: PASSKEY_REQUIRED },
      'Invalid email or password.',
    );
  }
  return 'Unable to log in right now. Please try again.';
}

export const MISSING_CHALLENGE = 'Missing login challenge. Please restart the login process.';

export function verifyTwoFactorErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    return serverText(
      error,
      {
        invalid_code: 'Incorrect or expired code.',
        throttled: THROTTLED,
        challenge_missing: MISSING_CHALLENGE,
        passkey_required: PASSKEY_REQUIRED,
      },
      'Incorrect or expired code.',
    );
  }
  return 'Unable to verify your login code. Please try again.';
}

export const CODE_SPENT = 'This code no longer works — send a new one.';
/** `code_replaced`: the digits of an earlier email, after "Send a new code". */
export const CODE_REPLACED = 'That code was replaced by a newer one. Enter the code from the latest email.';
export const SIGN_IN_EXPIRED = 'This sign-in has expired. Start over and enter your password again.';
export const RESEND_FAILED = 'Unable to send a new code right now. Please try again.';

const attemptsText = (left: number) => (left === 1 ? '1 attempt left.' : `${left} attempts left.`);

/**
 * The sign-in code step's view of a failed check: the product's text plus how many tries are left,
 * or, once the code is spent (too many tries, expired), a plain way forward.
 */
export function twoFactorErrorView(error: unknown): { message: string; spent?: boolean } {
  if (error instanceof ApiError && (error.code === 'invalid_code' || error.code === 'code_replaced')) {
    if (error.body.spent === true) return { message: CODE_SPENT, spent: true };
    const text = error.code === 'code_replaced' ? CODE_REPLACED : verifyTwoFactorErrorMessage(error);
    const left = Number(error.body.attempts_left);
    return { message: Number.isInteger(left) && left > 0 ? `${text} ${attemptsText(left)}` : text };
  }
  return { message: verifyTwoFactorErrorMessage(error) };
}

/** A failed 'Send a new code' on the sign-in step. */
export function resendTwoFactorErrorView(error: unknown): { message: string; retryAfter?: number; expired?: boolean } {
  if (error instanceof ApiError) {
    if (error.code === 'challenge_expired') return { message: SIGN_IN_EXPIRED, expired: true };
    if (error.code === 'throttled') {
      const retryAfter = Number(error.body.retry_after);
      return { message: THROTTLED, retryAfter: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 60 };
    }
  }
  return { message: RESEND_FAILED };
}

/** Its own text: a 9-character common password must not be told it is too short. */
export const COMMON_PASSWORD = 'This password is too common. Choose one that is harder to guess.';

export const FIELD_REQUIRED = 'This field is required.';
export const CORRECT_FIELDS = 'Please correct the highlighted fields.';

/** docs/product.md#5-validation-rules register validation texts, shared by the client-side checks and the server's codes. */
export const registerTexts = {
  firstNameRequired: 'First name is required.',
  firstNameInvalid: 'First name must be 1-100 characters.',
  lastNameRequired: 'Last name is required.',
  lastNameInvalid: 'Last name must be 1-100 characters.',
  emailRequired: 'Email is required.',
  weakPassword: 'Password must be at least 8 characters.',
  passwordMismatch: 'Passwords do not match.',
  alreadyRegistered: 'This email is already registered.',
  verificationPending: 'Please verify your email to continue.',
} as const;

export type RegisterField = 'first_name' | 'last_name' | 'email' | 'password' | 'passwordConfirm';

/** What a failed registration shows: a form-level message and messages under single fields. */
export interface RegisterErrorView {
  message?: string;
  fields: Partial<Record<RegisterField, string>>;
  /** The server already holds an unverified account: move on to code entry. */
  verificationPending?: boolean;
}

const REGISTER_FIELDS: RegisterField[] = ['first_name', 'last_name', 'email', 'password', 'passwordConfirm'];

export function registerErrorView(error: unknown): RegisterErrorView {
  if (!(error instanceof ApiError)) return { message: 'Unable to register. Please try again.', fields: {} };
  switch (error.code) {
    case 'missing_fields': {
      const listed = Array.isArray(error.body.fields) ? error.body.fields : [];
      const fields: RegisterErrorView['fields'] = {};
      for (const name of listed) {
        if (REGISTER_FIELDS.includes(name as RegisterField)) fields[name as RegisterField] = FIELD_REQUIRED;
      }
      return { message: CORRECT_FIELDS, fields };
    }
    case 'weak_password':
      return { message: registerTexts.weakPassword, fields: { password: registerTexts.weakPassword } };
    case 'common_password':
      return { message: COMMON_PASSWORD, fields: { password: COMMON_PASSWORD } };
    case 'password_mismatch':
      return { message: registerTexts.passwordMismatch, fields: { passwordConfirm: registerTexts.passwordMismatch } };
    case 'first_name_required':
      return { message: CORRECT_FIELDS, fields: { first_name: registerTexts.firstNameRequired } };
    case 'first_name_invalid':
      return { message: CORRECT_FIELDS, fields: { first_name: registerTexts.firstNameInvalid } };
    case 'last_name_required':
      return { message: CORRECT_FIELDS, fields: { last_name: registerTexts.lastNameRequired } };
    case 'last_name_invalid':
      return { message: CORRECT_FIELDS, fields: { last_name: registerTexts.lastNameInvalid } };
    case 'already_registered':
      return { message: registerTexts.alreadyRegistered, fields: {} };
    case 'verification_pending':
      return { message: registerTexts.verificationPending, fields: {}, verificationPending: true };
    case 'throttled':
      return { message: THROTTLED, fields: {} };
    default:
      return { message: serverText(error, {}, 'Unable to register. Please try again.'), fields: {} };
  }
}

export function verifyEmailErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.code === 'invalid_code') return 'Invalid or expired code.';
  if (error instanceof ApiError && error.code === 'throttled') return THROTTLED;
  return 'Unable to verify email right now. Please try again.';
}

export const RESET_REQUESTED = "If an account exists, we've sent a reset link.";
export const RESET_REQUEST_FAILED = 'Unable to request a password reset right now. Please try again.';

export const resetTexts = {
  invalidLink: 'This password reset link is invalid or has expired.',
  requestNew: 'Please request a new one.',
  tooShort: 'Password must be at least 8 characters long.',
  mismatch: 'Passwords must match.',
  weak: 'Choose a stronger password with at least 8 characters.',
  failed: 'Unable to reset your password right now. Please try again.',
} as const;

/** `invalidLink` tells the screen to disable the form and offer a new request. */
export function resetErrorView(error: unknown): { message: string; invalidLink?: boolean } {
  if (error instanceof ApiError) {
    if (error.code === 'invalid_or_expired') return { message: resetTexts.invalidLink, invalidLink: true };
    if (error.code === 'weak_password') return { message: resetTexts.weak };
    if (error.code === 'common_password') return { message: COMMON_PASSWORD };
    if (error.code === 'password_mismatch') return { message: resetTexts.mismatch };
    if (error.code === 'throttled') return { message: THROTTLED };
  }
  return { message: resetTexts.failed };
}

export const changePasswordTexts = {
  currentRequired: 'Current password is required.',
  tooShort: 'New password must be at least 8 characters.',
  mismatch: 'Passwords do not match.',
  incorrectCurrent: 'Current password is incorrect.',
  failed: 'Unable to update password.',
  success: 'Password updated successfully.',
} as const;

export function changePasswordErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'invalid_current_password') return changePasswordTexts.incorrectCurrent;
    if (error.code === 'weak_password') return changePasswordTexts.tooShort;
    if (error.code === 'common_password') return COMMON_PASSWORD;
    if (error.code === 'password_mismatch') return changePasswordTexts.mismatch;
    if (error.code === 'throttled') return THROTTLED;
  }
  return changePasswordTexts.failed;
}
