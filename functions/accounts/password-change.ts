import { auditPuts, writeAudit } from '../lib/audit';
import { tableName } from '../lib/db';
import { badRequest, conflict } from '../lib/errors';
import { keepSession } from '../lib/session';
import { keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { accountAudit, type Caller } from '../lib/caller';
import { assertStrongPassword, hashPassword, verifyPassword } from './passwords';
import { consume } from './rate-limit';
import { nowIso } from '../lib/clock';
import { isConditionRefusal, transactWrite } from '../lib/transact-write';

/**
 * Change password from the settings page: the current password is required; on success every
 * other session ends and the current one gets a fresh cookie (returned here). The new hash and
 * the bumped session_version are one transaction.
 */
export async function changePassword(
  user: UserRecord,
  sessionId: string,
  input: { current_password: string; new_password: string; confirm_new_password: string },
  caller: Caller,
  /** The kept session's sign-in time, so the new cookie keeps its 12-hour absolute limit. */
  authTime?: number,
): Promise<{ cookie?: string }> {
  assertStrongPassword(input.new_password, user.email);
  if (input.new_password !== input.confirm_new_password) throw badRequest('password_mismatch');
  // Bounds guessing of the current password by someone holding a stolen session.
  await consume('passwordChangesPerUser', user.id, caller);
  if (!input.current_password || !(await verifyPassword(input.current_password, user.password_hash))) {
    // A wrong current password may be someone else at an open session: a security event (docs/security.md#security-events-in-the-audit-log).
    await writeAudit(accountAudit('auth.password_change_failed', user, caller, { new: { reason: 'invalid_current_password' } }));
    throw badRequest('invalid_current_password');
  }
  const passwordHash = await hashPassword(input.new_password);
  const sessionVersion = user.session_version ?? 0;
  try {
    await transactWrite({
      TransactItems: [
        {
          Update: {
            TableName: tableName(),
            Key: keys.user(user.id),
            // The new hash and the end of every other session in one write: no moment, and no
            // failure in between, leaves the old sessions alive with the new password set.
            UpdateExpression: 'SET password_hash = :hash, updated_at = :now, session_version = :version ADD version :one',
            // Optimistic: a concurrent change, reset or "sign out everywhere" wins, this one is refused.
            // (an older account may have no session_version yet: read as 0)
            ConditionExpression: 'password_hash = :old AND (session_version = :current OR attribute_not_exists(session_version))',
            ExpressionAttributeValues: {
              ':hash': passwordHash,
              ':old': user.password_hash,
              ':now': nowIso(),
              ':one': 1,
              ':version': sessionVersion + 1,
              ':current': sessionVersion,
            },
          },
        },
        ...auditPuts(accountAudit('auth.password_changed', user, caller, { new: { other_sessions_ended: true } })),
      ],
    });
  } catch (error) {
    if (isConditionRefusal(error)) throw conflict('password_changed_concurrently');
    throw error;
  }
  return keepSession(user.id, { sessionId, authTime }, sessionVersion + 1);
}
