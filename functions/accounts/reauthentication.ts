import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { writeAudit } from '../lib/audit';
import { accountAudit, type Caller } from '../lib/caller';
import { badRequest, forbidden } from '../lib/errors';
import type { UserRecord } from '../lib/user-record';
import { takeChallenge } from './passkey-challenges';
import { credentialHash } from './passkey-records';
import { recordPasskeyUse, storedPasskey, verifyAssertion } from './passkey-sign-in';
import { verifyPassword } from './passwords';
import { consume } from './rate-limit';

/**
 * "Confirm it's you" (docs/security.md#account-security-center): the proof asked before adding a
 * passkey, removing one, ending a session or signing out everywhere else. The current password,
 * or an assertion of a passkey the account already has (answering a `confirm` challenge of
 * `POST /api/auth/passkeys/confirmation/options`). A recent sign-in is not enough: whoever holds
 * a stolen session must not turn it into a lasting way in, nor lock the owner's other devices out.
 */
export interface IdentityProof {
  current_password?: string;
  passkey?: { challenge_id: string; response: unknown };
}

/**
 * Checks the proof; none → 403 `reauthentication_required`. A wrong password or a refused
 * passkey is audited under `refusedAction` with the reason.
 */
export async function confirmIdentity(user: UserRecord, proof: IdentityProof, caller: Caller, refusedAction: string): Promise<void> {
  const refuse = async (reason: string, error: Error): Promise<never> => {
    await writeAudit(accountAudit(refusedAction, user, caller, { new: { reason } }));
    throw error;
  };
  if (proof.current_password) {
    // Bounds guessing of the current password by someone holding a stolen session; its own
    // budget, apart from the password change's (docs/security.md#confirm-its-you-a-budget-of-its-own).
    await consume('reauthenticationsPerUser', user.id, caller);
    if (!(await verifyPassword(proof.current_password, user.password_hash)))
      return refuse('invalid_current_password', badRequest('invalid_current_password'));
    return;
  }
  if (!proof.passkey) throw forbidden('reauthentication_required');
  const expectedChallenge = await takeChallenge(proof.passkey.challenge_id, 'confirm', user.id);
  const response = proof.passkey.response as AuthenticationResponseJSON;
  const stored = await storedPasskey(user.id, credentialHash(response.id));
  const verified = stored ? await verifyAssertion(stored, response, expectedChallenge) : null;
  if (!stored || !verified || !(await recordPasskeyUse(stored, verified)))
    return refuse('passkey_verification_failed', badRequest('passkey_verification_failed'));
}
