import { writeAudit } from '../lib/audit';
import { forbidden } from '../lib/errors';
import { accepts } from '../lib/account-states';
import { hardDeleteAvailableAt } from '../lib/retention';
import type { UserRecord } from '../lib/user-record';
import { accountAudit, type Caller } from '../lib/caller';
import { deliver } from './emails/deliver';
import { restoreCodeEmail } from './emails/restore-code';
import { challengeCookie, newBrowserBinding, openChallenge } from './login-challenge';
import { type LoginAttempt, undoneOnFailure } from './rate-limit';
import { assertPasswordSignInPossible } from './admin-passkey-rule';
import { nowMs } from '../lib/clock';

/**
 * A deleted account its owner may bring back (docs/product.md#account-data): deleted by the owner
 * (an administrator's deletion is theirs to undo) and still within the retention period.
 */
export function isSelfRestorable(user: UserRecord, now = nowMs()): boolean {
  const eraseAfter = hardDeleteAvailableAt(user);
  return accepts('selfRestore', user.status) && user.deleted_by === 'self' && eraseAfter !== null && now < eraseAfter.getTime();
}

/** Marks the challenge that restores an account: it never opens a session on its own. */
export const RESTORE_PURPOSE = 'restore';

/**
 * What the password step does for a restorable account, once the password was accepted: a sign-in
 * answers 403 `account_deleted` (with the day the data will be erased) so the screen can offer the
 * restore; a restore request opens a challenge like a sign-in's (same code, tries and browser
 * binding, counted against the same per-account budget) whose emailed code confirms it. A restore
 * request for an account that is not restorable never gets here: the password step answers it as a
 * wrong password (functions/accounts/login.ts).
 */
export async function restoreStep(
  user: UserRecord,
  caller: Caller,
  purpose: 'sign_in' | 'restore',
  /** The password step's attempt, settled here: its reservation given back, with the challenge counted when one opens. */
  attempt: LoginAttempt,
): Promise<{ challengeId: string; browserCookie: string }> {
  const eraseAfter = hardDeleteAvailableAt(user)!.toISOString();
  if (purpose === 'sign_in') {
    await attempt.succeeded();
    await writeAudit(accountAudit('auth.login_refused', user, caller, { new: { reason: 'account_deleted' } }, null));
    throw forbidden('account_deleted', { erase_after: eraseAfter });
  }
  // an administrator who must use a passkey cannot restore with a password: no code is mailed
  await undoneOnFailure(
    () => attempt.succeeded(),
    () => assertPasswordSignInPossible(user, caller),
  );
  const giveBackChallenge = await attempt.openingChallenge();
  const binding = newBrowserBinding();
  const challengeId = await undoneOnFailure(giveBackChallenge, () =>
    openChallenge(
      user,
      binding.hash,
      (code) => deliver(restoreCodeEmail(user.email, user.first_name, code), 'restore_code', { account: user.id, ip: caller.ip }),
      {
        purpose: RESTORE_PURPOSE,
      },
    ),
  );
  return { challengeId, browserCookie: challengeCookie(binding.value) };
}
