import { mutateUser } from './user-mutation';
import { restoreChange } from './status-change';
import { writeAudit } from '../lib/audit';
import { ApiError, badRequest } from '../lib/errors';
import type { UserRecord } from '../lib/user-record';
import { getUserById } from '../lib/users';
import { accountAudit, type Caller } from '../lib/caller';
import { checkChallengeCode, completeSignIn, startLogin } from './login';
import { isBoundTo } from './login-challenge';
import { isSelfRestorable, RESTORE_PURPOSE } from './restorable-account';
import { takePasswordSignIn } from './admin-passkey-rule';
import { deviceCookie } from './trusted-device';

/**
 * "Restore my account" (docs/product.md#account-data): within the retention period the owner of
 * an account they deleted brings it back with the password and an emailed code, as a sign-in
 * does. The restore is the same write as an administrator's (status, lists, counters, the
 * certificate verifying again), audited `account.self_restore`, and the learner is signed in.
 */
export const startRestore = (input: { email: string; password: string }, caller: Caller) => startLogin(input, caller, 'restore');

export async function finishRestore(
  input: { email: string; code: string; challenge_id: string },
  caller: Caller,
): Promise<{ user: UserRecord; cookie: string; browserCookie: string; deviceCookie: string }> {
  // Only a restore challenge, of this address, opened in this browser.
  const { user: found } = await checkChallengeCode(
    input,
    caller,
    (item, email) => item.purpose === RESTORE_PURPOSE && item.email_lower === email && isBoundTo(item, caller.cookies),
  );
  // Restored by an administrator, erased, or a newer challenge since the password step: nothing to do.
  if (!found || !isSelfRestorable(found) || found.login_challenge !== input.challenge_id) {
    if (found) await writeAudit(accountAudit('auth.2fa_failed', found, caller, { new: { reason: 'not_restorable' } }, null));
    throw badRequest('invalid_code');
  }
  // an administrator who must use a passkey is neither restored nor signed in this way
  const { operatorAllowance } = await takePasswordSignIn(found, caller);
  await mutateUser(found.id, 'restore', (user) =>
    restoreChange(user, (values) => accountAudit('account.self_restore', user, caller, values)),
  ).catch((error: unknown) => {
    // restored by an administrator or being erased since the check above: nothing to restore
    if (error instanceof ApiError && error.statusCode === 409) throw badRequest('invalid_code');
    throw error;
  });
  const user = await getUserById(found.id);
  if (!user) throw badRequest('invalid_code'); // erased in the same instant: nothing to sign in to
  const signedIn = await completeSignIn(user, caller, operatorAllowance ? { operator_allowance: true } : undefined);
  return { ...signedIn, deviceCookie: await deviceCookie(user.id) };
}
