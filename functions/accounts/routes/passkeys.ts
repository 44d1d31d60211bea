import * as z from 'zod/mini';
import { defineRoute } from '../../lib/http';
import { publicUser } from '../../lib/user-record';
import { listPasskeys } from '../passkey-records';
import { removePasskeyByLink } from '../passkey-removal-link';
import { removePasskey, renamePasskey } from '../passkey-management';
import { finishPasskeyRegistration, startPasskeyConfirmation, startPasskeyRegistration } from '../passkey-registration';
import { finishPasskeyLogin, startPasskeyLogin } from '../passkey-sign-in';
import { callerOf } from '../../lib/caller';
import { credentialResponse, identityProof } from './identity-proof';

// Names appear in notice emails and on screens: no control characters, line breaks or
// direction overrides that could forge extra lines or reorder the text around them.
const passkeyName = z
  .string()
  .check(z.trim(), z.minLength(1), z.maxLength(64), z.regex(/^[^\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]*$/u));

/** `GET /api/auth/passkeys` → `{ items: [{ id, name, created_at, last_used_at, backed_up }] }`. */
export const getPasskeys = defineRoute({
  handler: async (req) => ({ body: { items: await listPasskeys(req.session!.user.id) } }),
});

/** `POST /api/auth/passkeys/confirmation/options` → `{ challenge_id, options }`: "Confirm it's you" with one of the account's passkeys (../reauthentication.ts). */
export const passkeyConfirmationOptions = defineRoute({
  handler: async (req) => ({ body: await startPasskeyConfirmation(req.session!.user) }),
});

/**
 * `POST /api/auth/passkeys/registration/options` `{ current_password }` or `{ passkey: { challenge_id,
 * response } }` → `{ challenge_id, options }`.
 */
export const passkeyRegistrationOptions = defineRoute({
  body: identityProof,
  handler: async (req) => ({ body: await startPasskeyRegistration(req.session!.user, req.body, callerOf(req)) }),
});

/**
 * `POST /api/auth/passkeys/registration/verify` `{ challenge_id, name?, response }` → 201 the new
 * passkey (without a name: the provider's or the device's, ../passkey-names.ts).
 */
export const passkeyRegistrationVerify = defineRoute({
  body: z.object({ challenge_id: z.string().check(z.maxLength(128)), name: z.optional(passkeyName), response: credentialResponse }),
  handler: async (req) => ({ status: 201, body: await finishPasskeyRegistration(req.session!.user, req.body, callerOf(req)) }),
});

/** `PATCH /api/auth/passkeys/{id}` `{ name }` → the renamed passkey. */
export const passkeyRename = defineRoute({
  body: z.object({ name: passkeyName }),
  handler: async (req) => ({ body: await renamePasskey(req.session!.user, req.params.id ?? '', req.body.name, callerOf(req)) }),
});

/** `DELETE /api/auth/passkeys/{id}` `{ current_password }` or `{ passkey: { challenge_id, response } }` → `{ ok: true }`. */
export const passkeyRemove = defineRoute({
  body: identityProof,
  handler: async (req) => {
    await removePasskey(req.session!.user, req.params.id ?? '', req.body, callerOf(req));
    return { body: { ok: true } };
  },
});

/**
 * `POST /api/auth/passkeys/removal` `{ token }` → `{ ok: true }`: the `passkey_added` notice's
 * "this wasn't me" link (no session: the signed token names the account and the passkey).
 */
export const passkeyRemovalByLink = defineRoute({
  body: z.object({ token: z.string().check(z.trim(), z.minLength(1), z.maxLength(2048)) }),
  handler: async (req) => {
    await removePasskeyByLink(req.body.token, callerOf(req));
    return { body: { ok: true } };
  },
});

/** `POST /api/auth/passkeys/authentication/options` → `{ challenge_id, options }` (no account named). */
export const passkeyLoginOptions = defineRoute({
  handler: async (req) => ({ body: await startPasskeyLogin(callerOf(req)) }),
});

/** `POST /api/auth/passkeys/authentication/verify` `{ challenge_id, response }` → the session cookie and `{ ok, user }`. */
export const passkeyLoginVerify = defineRoute({
  body: z.object({ challenge_id: z.string().check(z.maxLength(128)), response: credentialResponse }),
  handler: async (req) => {
    const caller = callerOf(req);
    const { user, cookie, browserCookie } = await finishPasskeyLogin(req.body, caller);
    return { body: { ok: true, user: publicUser(user) }, cookies: [cookie, browserCookie] };
  },
});
