import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, NAME_MAX_LENGTH, NAME_MIN_LENGTH } from './constants';

/**
 * Account validation rules shared by the SPA (instant feedback) and the API (the real check).
 * Pure functions, no Node imports: the web bundle includes this file. The common-password list
 * is server-only (functions/accounts/passwords.ts) because it is large.
 */

export type NameProblem = 'required' | 'invalid';

/**
 * Control characters (C0 with the line breaks, DEL, C1) and the line and paragraph separators:
 * no name shown in lists and emails, and no address, holds one; in a DynamoDB key they are what
 * IAM's `*` in a key pattern does not match (docs/security.md#values-that-become-keys).
 */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
export const hasControlCharacters = (value: string) => CONTROL_CHARS.test(value);

/** docs/product.md#5-validation-rules: 1-100 characters after trimming. */
export function checkName(value: unknown): NameProblem | null {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim().length === 0)) return 'required';
  // A number or an object is a malformed value, not a missing one.
  if (typeof value !== 'string') return 'invalid';
  const trimmed = value.trim();
  if (trimmed.length < NAME_MIN_LENGTH || trimmed.length > NAME_MAX_LENGTH || CONTROL_CHARS.test(trimmed)) return 'invalid';
  return null;
}

/** RFC 5321 caps an address at 254 characters. */
export const MAX_EMAIL_LENGTH = 254;

/**
 * A pragmatic shape check (one @, a dot in the domain, no spaces, no control characters, at most
 * 254 characters after trimming); the emailed code proves the rest.
 */
export function isEmailShape(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const email = value.trim();
  return email.length <= MAX_EMAIL_LENGTH && !CONTROL_CHARS.test(email) && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email);
}

/** 8 to 128 characters of anything (no composition rules, docs/security.md). */
export function passwordLengthOk(password: string): boolean {
  const length = [...password].length;
  return length >= MIN_PASSWORD_LENGTH && length <= MAX_PASSWORD_LENGTH;
}

/** The email itself is never an acceptable password. */
export function passwordIsEmail(password: string, email: string): boolean {
  return password.trim().toLowerCase() === email.trim().toLowerCase();
}

export interface RegistrationInput {
  first_name?: unknown;
  last_name?: unknown;
  email?: unknown;
  password?: unknown;
  passwordConfirm?: unknown;
}

export type RegistrationProblem =
  | { error: 'missing_fields'; fields: string[] }
  | { error: 'first_name_required' | 'first_name_invalid' | 'last_name_required' | 'last_name_invalid' }
  | { error: 'invalid_email' | 'weak_password' | 'password_mismatch' };

const REGISTRATION_FIELDS = ['first_name', 'last_name', 'email', 'password', 'passwordConfirm'] as const;

const isBlank = (value: unknown) => typeof value !== 'string' || value.trim() === '';

/**
 * The registration form's rules in the order the user should fix them (the common-password
 * check is added by the server). Several empty fields give `missing_fields` with the list, so
 * the form can mark them all; a single empty name gives its own `<name>_required` code.
 */
export function checkRegistration(input: RegistrationInput): RegistrationProblem | null {
  const missing = REGISTRATION_FIELDS.filter((field) =>
    field === 'password' || field === 'passwordConfirm' ? typeof input[field] !== 'string' || input[field] === '' : isBlank(input[field]),
  );
  if (missing.length === 1 && missing[0] === 'first_name') return { error: 'first_name_required' };
  if (missing.length === 1 && missing[0] === 'last_name') return { error: 'last_name_required' };
  if (missing.length) return { error: 'missing_fields', fields: missing };
  if (checkName(input.first_name)) return { error: 'first_name_invalid' };
  if (checkName(input.last_name)) return { error: 'last_name_invalid' };
  if (!isEmailShape(input.email)) return { error: 'invalid_email' };
  const password = input.password as string;
  if (!passwordLengthOk(password) || passwordIsEmail(password, input.email)) return { error: 'weak_password' };
  if (password !== input.passwordConfirm) return { error: 'password_mismatch' };
  return null;
}
