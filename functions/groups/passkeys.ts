import {
  getPasskeys,
  passkeyLoginOptions,
  passkeyConfirmationOptions,
  passkeyLoginVerify,
  passkeyRegistrationOptions,
  passkeyRegistrationVerify,
  passkeyRemovalByLink,
  passkeyRemove,
  passkeyRename,
} from '../accounts/routes/passkeys';
import { deleteSession, revokeOthers } from '../accounts/routes/session-revocation';
import { createGroupHandler } from '../lib/http';

/**
 * Lambda entry for the `passkeys` endpoint group (docs/security.md#account-security-center): adding, listing,
 * renaming and removing passkeys (also by the signed link of the `passkey_added` notice),
 * signing in with one, and ending sessions (like adding and removing a passkey, they ask "Confirm
 * it's you", which may be a passkey). Apart from `auth` so that the WebAuthn library never weighs
 * on the password sign-in's cold start.
 */
export const handler = createGroupHandler('passkeys', {
  'GET /api/auth/passkeys': getPasskeys,
  'POST /api/auth/passkeys/confirmation/options': passkeyConfirmationOptions,
  'POST /api/auth/passkeys/registration/options': passkeyRegistrationOptions,
  'POST /api/auth/passkeys/registration/verify': passkeyRegistrationVerify,
  'PATCH /api/auth/passkeys/{id}': passkeyRename,
  'DELETE /api/auth/passkeys/{id}': passkeyRemove,
  'POST /api/auth/passkeys/removal': passkeyRemovalByLink,
  'POST /api/auth/passkeys/authentication/options': passkeyLoginOptions,
  'POST /api/auth/passkeys/authentication/verify': passkeyLoginVerify,
  'DELETE /api/auth/sessions/{id}': deleteSession,
  'POST /api/auth/sessions/revoke-others': revokeOthers,
});
