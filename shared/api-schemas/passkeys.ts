/** Response shapes and error codes of the `passkeys` group (docs/security.md#account-security-center). */
import * as z from 'zod/mini';
import { isoTime, ok, publicUser, THROTTLED, type RouteDoc } from './common';

/** A passkey as the API shows it (`GET /api/auth/passkeys` items, registration, rename). */
export const passkey = z.object({
  id: z.string(),
  name: z.string(),
  created_at: isoTime,
  last_used_at: z.nullable(isoTime),
  backed_up: z.boolean(),
});
/** `GET /api/auth/passkeys` */
export const passkeyList = z.object({ items: z.array(passkey) });
/** WebAuthn options for the browser (the library's shape, passed through as is). */
const LIMIT = { max: z.number().check(z.describe('passkey_limit_reached: how many passkeys an account may hold')) };
const options = z.object({ challenge_id: z.string(), options: z.looseObject({ challenge: z.string() }) });
/** What a "Confirm it's you" (the current password or a passkey's assertion) can answer. */
const CONFIRM_ERRORS = {
  400: ['invalid_current_password', 'invalid_challenge', 'passkey_verification_failed'],
  403: ['reauthentication_required'],
  429: THROTTLED,
};

export const passkeysDocs: Record<string, RouteDoc> = {
  'GET /api/auth/passkeys': { summary: "The caller's passkeys.", responses: { 200: passkeyList }, errors: {} },
  'POST /api/auth/passkeys/confirmation/options': {
    summary:
      '"Confirm it\'s you" with a passkey (before adding or removing a passkey or ending sessions): options limited to the caller\'s passkeys.',
    responses: { 200: options },
    errors: { 404: ['passkey_not_found'] },
  },
  'POST /api/auth/passkeys/registration/options': {
    summary: 'Starts adding a passkey, after "Confirm it\'s you": the current password or an assertion of one of the caller\'s passkeys.',
    responses: { 200: options },
    details: LIMIT,
    errors: { ...CONFIRM_ERRORS, 409: ['passkey_limit_reached'] },
  },
  'POST /api/auth/passkeys/registration/verify': {
    summary: "Finishes adding a passkey with the browser's attestation.",
    responses: { 201: passkey },
    details: LIMIT,
    errors: {
      400: ['invalid_challenge', 'challenge_expired', 'passkey_verification_failed'],
      409: ['passkey_exists', 'passkey_limit_reached'],
    },
  },
  'PATCH /api/auth/passkeys/{id}': { summary: 'Renames a passkey.', responses: { 200: passkey }, errors: { 404: ['passkey_not_found'] } },
  'DELETE /api/auth/passkeys/{id}': {
    summary: 'Removes a passkey, after "Confirm it\'s you": the current password or an assertion of one of the caller\'s passkeys.',
    responses: { 200: ok },
    errors: { ...CONFIRM_ERRORS, 404: ['passkey_not_found'] },
  },
  'POST /api/auth/passkeys/removal': {
    summary: 'The passkey_added notice\'s "this wasn\'t me" link: removes that passkey and ends every session; no session needed.',
    body: z.object({ token: z.string().check(z.describe('the signed token of the link')) }),
    responses: { 200: ok },
    errors: { 400: ['invalid_token'], 404: ['passkey_not_found'] },
  },
  'DELETE /api/auth/sessions/{id}': {
    summary: "Ends one of the caller's sessions (another person's id: 404), after \"Confirm it's you\".",
    headers: { 'Set-Cookie': 'clears the session cookie and the signed-in hint when the session ended is this one' },
    responses: { 200: ok },
    errors: { ...CONFIRM_ERRORS, 404: ['session_not_found'] },
  },
  'POST /api/auth/sessions/revoke-others': {
    summary: 'Ends every session of the caller but the current one (one bump of the session version), after "Confirm it\'s you".',
    headers: { 'Set-Cookie': 'a fresh session cookie for the current session' },
    responses: { 200: z.object({ ok: z.literal(true), ended: z.number() }) },
    errors: CONFIRM_ERRORS,
  },
  'POST /api/auth/passkeys/authentication/options': {
    summary: 'Starts a passkey sign-in (no account named).',
    responses: { 200: options },
    errors: { 429: THROTTLED },
  },
  'POST /api/auth/passkeys/authentication/verify': {
    summary: "Finishes a passkey sign-in with the browser's assertion; sets the session cookie.",
    responses: { 200: z.object({ ok: z.literal(true), user: publicUser }) },
    headers: { 'Set-Cookie': 'the session cookie, the signed-in hint and the known-browser cookie' },
    details: { needsVerification: z.literal(true).check(z.describe('email_not_verified: the account waits for its email check')) },
    errors: {
      400: ['invalid_challenge', 'challenge_expired'],
      401: ['invalid_credentials'],
      403: ['account_locked', 'email_not_verified'],
      429: THROTTLED,
    },
  },
};
