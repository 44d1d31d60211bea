/** Response shapes and error codes of the `auth` group (docs/product.md#7-the-calls-it-makes). */
import * as z from 'zod/mini';
import { keyEmail } from '../key-values';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, NAME_MAX_LENGTH } from '../constants';
import { CODE_ATTEMPTS, EMAIL_ERRORS, isoTime, MESSAGE_DETAIL, ok, openModule, publicUser, THROTTLED, type RouteDoc } from './common';

const NAME_ERRORS = [
  'missing_fields',
  'first_name_required',
  'first_name_invalid',
  'last_name_required',
  'last_name_invalid',
  'email_required',
  'invalid_email',
];
const PASSWORD_ERRORS = ['weak_password', 'common_password', 'password_mismatch'];
/** A first or last name as accounts take it (docs/product.md#5-validation-rules). */
// The server trims before it counts, so the limit is on what is left between the spaces.
export const personName = z
  .string()
  .check(z.regex(new RegExp(`^\\s*\\S(?:.{0,${NAME_MAX_LENGTH - 2}}\\S)?\\s*$`)))
  .check(z.describe(`1 to ${NAME_MAX_LENGTH} characters after trimming`));
/** An email address (docs/product.md#5-validation-rules): the rule every route that takes one applies (shared/key-values.ts). */
export const emailAddress = keyEmail;
/** The cookies a completed sign-in sets (docs/security.md). */
const SIGNED_IN_COOKIES =
  'the session cookie, the signed-in hint, the trusted-device and known-browser cookies; clears the sign-in challenge binding';
const CHALLENGE_COOKIE = "binds the code's challenge to this browser (HttpOnly)";
const resetToken = z.string().check(z.minLength(1)).check(z.describe('the token of the emailed reset link'));
/** `GET /api/auth/sessions` */
export const sessionList = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      current: z.boolean(),
      created_at: isoTime,
      last_seen_at: isoTime,
      ip: z.string(),
      user_agent: z.string(),
      /** A short device name read from the user agent. */
      device: z.string(),
    }),
  ),
});
/** `POST /api/auth/login` and `POST /api/auth/resend-2fa`: the sign-in is waiting for the emailed code. */
export const twoFactorChallenge = z.object({ two_factor_pending: z.literal(true), challenge_id: z.string() });

/** `progress` of the session user in `GET /api/auth/me` */
export const userProgress = z.object({
  state: z.enum(['not_enrolled', 'active', 'completed']),
  percent_complete: z.number(),
  program_title: z.string(),
  open_module: z.nullable(openModule),
});
/** `GET /api/certificates/{code}`: what anyone may check, without signing in. */
export const publicCertificate = z.object({
  verification_code: z.string(),
  name: z.string(),
  program_title: z.string(),
  completed_at: isoTime,
  issued_at: isoTime,
  status: z.enum(['valid', 'revoked']),
  revoked_at: z.nullable(isoTime),
});

export const authDocs: Record<string, RouteDoc> = {
  'GET /api/health': {
    summary: 'Readiness: 200 once the database (and locally the mail endpoint) answer.',
    responses: { 200: ok },
    errors: {},
  },
  'GET /api/openapi.json': {
    summary: 'This OpenAPI 3.1 document.',
    responses: {
      200: z.looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string() }), paths: z.record(z.string(), z.unknown()) }),
    },
    errors: {},
  },
  'GET /api/auth/me': {
    summary: 'The signed-in user and their progress.',
    responses: {
      200: z.extend(publicUser, {
        progress: userProgress,
      }),
    },
    errors: {},
  },
  'POST /api/auth/logout': {
    summary: 'Ends this session server-side and clears the cookie, with or without a session.',
    headers: { 'Set-Cookie': 'clears the session cookie and the signed-in hint' },
    responses: { 200: ok },
    errors: {},
  },
  'POST /api/auth/login': {
    summary: 'Sign-in step 1: checks the password and emails a 6-digit code.',
    responses: { 200: twoFactorChallenge },
    headers: { 'Set-Cookie': CHALLENGE_COOKIE },
    details: {
      needsVerification: z.literal(true).check(z.describe('email_not_verified: the account waits for its email check')),
      erase_after: isoTime.check(z.describe('account_deleted: when the deleted account is erased (restorable until then)')),
      ...MESSAGE_DETAIL,
    },
    errors: {
      400: ['invalid_email'],
      401: ['invalid_credentials'],
      403: ['email_not_verified', 'account_locked', 'account_deleted', 'passkey_required'],
      429: THROTTLED,
      ...EMAIL_ERRORS,
    },
  },
  'POST /api/auth/verify-2fa': {
    summary: 'Sign-in step 2: the emailed code; sets the session cookie.',
    description:
      '400 `invalid_code` (with `attempts_left`, and `spent: true` once the code can no longer work); 400 `code_replaced` when the code is one a "Send a new code" replaced (a counted try like a wrong code).',
    responses: { 200: z.object({ ok: z.literal(true), user: publicUser }) },
    headers: { 'Set-Cookie': SIGNED_IN_COOKIES },
    details: { ...CODE_ATTEMPTS, ...MESSAGE_DETAIL },
    errors: {
      400: ['invalid_code', 'code_replaced', 'invalid_email'],
      403: ['account_locked', 'email_not_verified', 'passkey_required'],
      429: THROTTLED,
    },
  },
  'POST /api/auth/register': {
    summary: 'Creates an unverified learner account and emails a verification code.',
    // The handler takes every field as optional to answer the product's own codes for a missing one.
    body: z.object({
      first_name: personName,
      last_name: personName,
      email: emailAddress,
      password: z.string().check(z.minLength(MIN_PASSWORD_LENGTH)).check(z.maxLength(MAX_PASSWORD_LENGTH)),
      passwordConfirm: z.string().check(z.describe('the password again')),
    }),
    responses: { 201: z.object({ ok: z.literal(true), verification_pending: z.literal(true) }) },
    errors: {
      400: [...NAME_ERRORS, ...PASSWORD_ERRORS, 'invalid_time_zone'],
      409: ['already_registered', 'verification_pending'],
      429: THROTTLED,
      ...EMAIL_ERRORS,
    },
  },
  'POST /api/auth/verify-email': {
    summary: 'Verifies the email with the emailed code.',
    responses: { 200: z.object({ ok: z.literal(true), verified: z.literal(true) }) },
    errors: { 400: ['invalid_code', 'invalid_email'], 429: THROTTLED },
  },
  'POST /api/auth/resend-verification': {
    summary: 'Sends a new verification code (the same answer for every address).',
    responses: { 202: ok },
    errors: { 400: ['invalid_email'], 429: THROTTLED, ...EMAIL_ERRORS },
  },
  'POST /api/auth/resend-2fa': {
    summary: 'Sends a new sign-in code: a fresh challenge.',
    responses: { 200: twoFactorChallenge },
    headers: { 'Set-Cookie': CHALLENGE_COOKIE },
    errors: { 400: ['invalid_challenge', 'challenge_expired', 'invalid_email'], 429: THROTTLED, ...EMAIL_ERRORS },
  },
  'POST /api/auth/restore': {
    summary: 'Restore step 1: the password of an account its owner deleted (within the retention period); emails a 6-digit code.',
    responses: { 200: z.object({ restore_pending: z.literal(true), challenge_id: z.string() }) },
    headers: { 'Set-Cookie': CHALLENGE_COOKIE },
    details: MESSAGE_DETAIL,
    errors: { 400: ['invalid_email'], 401: ['invalid_credentials'], 403: ['passkey_required'], 429: THROTTLED, ...EMAIL_ERRORS },
  },
  'POST /api/auth/restore/verify': {
    summary: 'Restore step 2: the emailed code; the account is active again and the session cookie is set.',
    responses: { 200: z.object({ ok: z.literal(true), user: publicUser }) },
    headers: { 'Set-Cookie': SIGNED_IN_COOKIES },
    details: { ...CODE_ATTEMPTS, ...MESSAGE_DETAIL },
    errors: { 400: ['invalid_code', 'invalid_email'], 403: ['passkey_required'], 429: THROTTLED },
  },
  'POST /api/auth/password-reset/request': {
    summary:
      'Emails a reset link when the address has an account; always `{ ok: true }` for an address (400 `invalid_email` for what is none).',
    responses: { 200: ok },
    errors: { 400: ['invalid_email'], 429: THROTTLED, ...EMAIL_ERRORS },
  },
  'GET /api/auth/password-reset/validate': {
    summary: 'Whether a reset token is still usable.',
    query: z.object({ token: resetToken }),
    responses: { 200: ok },
    errors: { 400: ['invalid_or_expired'] },
  },
  'POST /api/auth/password-reset/confirm': {
    summary: 'Sets a new password with a reset token; every session of the account ends.',
    headers: { 'Set-Cookie': 'the trusted-device cookie (the emailed link proved this browser)' },
    body: z.object({ token: resetToken, password: z.string(), password2: z.string().check(z.describe('the password again')) }),
    responses: { 200: ok },
    errors: { 400: ['invalid_or_expired', ...PASSWORD_ERRORS], 429: THROTTLED },
  },
  'GET /api/auth/sessions': {
    summary: "The caller's live sessions.",
    responses: { 200: sessionList },
    errors: {},
  },
  'GET /api/certificates/{code}': {
    summary: 'Public check of a certificate by its verification code.',
    responses: {
      200: publicCertificate,
    },
    errors: { 404: ['certificate_not_found'] },
  },
};
