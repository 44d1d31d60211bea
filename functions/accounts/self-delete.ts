import { writeAudit } from '../lib/audit';
import { hardDeleteAvailableAt } from '../lib/retention';
import { config } from '../lib/config';
import { sendEmail } from '../lib/email';
import { badRequest, forbidden } from '../lib/errors';
import { logger } from '../lib/logger';
import type { UserRecord } from '../lib/user-record';
import { accountAudit, type Caller } from '../lib/caller';
import { accountDeletionEmail } from './emails/account-deletion';
import { verifyPassword } from './passwords';
import { consume } from './rate-limit';
import { softDeleteChange } from './status-change';
import { mutateUser } from './user-mutation';

/** The reason stored on the account, as the admin drawer shows it (docs/product.md#account-data). */
export const SELF_DELETE_REASON = 'requested by the learner';

export interface SelfDeleteResult {
  status: 'deleted';
  deleted_at: string;
  /** The day from which the account may be erased (deleted_at + the retention period). */
  erase_after: string;
}

/**
 * "Delete my account" (GDPR art. 17): the learner confirms with the password; the account is
 * soft-deleted exactly as an admin's soft-delete does (same write, reason "requested by the
 * learner", every session ended), then a confirmation email says when the data will be erased.
 * Until then the learner may restore the account by signing in (functions/accounts/account-restore.ts).
 * A wrong password changes nothing. Administrators are removed by another administrator, so a
 * product can never lose its last admin this way.
 */
export async function deleteOwnAccount(user: UserRecord, password: string, caller: Caller): Promise<SelfDeleteResult> {
  if (user.role === 'admin') throw forbidden('admin_self_delete');
  // Bounds guessing of the password by someone holding a stolen session (same budget as a change).
  await consume('passwordChangesPerUser', user.id, caller);
  if (!password || !(await verifyPassword(password, user.password_hash))) {
    // someone holding the session may be guessing the password: a security event
    await writeAudit(accountAudit('account.self_delete_refused', user, caller, { new: { reason: 'invalid_password' } }));
    throw badRequest('invalid_password');
  }
  const deleted = await mutateUser(user.id, 'softDelete', (current) =>
    softDeleteChange(current, SELF_DELETE_REASON, (values) => accountAudit('account.self_delete', current, caller, values), true),
  );
  const eraseAfter = hardDeleteAvailableAt({ status: 'deleted', deleted_at: deleted.deleted_at })!;
  const eraseOn = eraseAfter.toISOString().slice(0, 10);
  // The deletion stands even if the mail fails: the learner asked for it and saw the answer.
  await sendEmail(accountDeletionEmail(user.email, eraseOn, config().retentionDays, config().supportEmail)).catch((error) =>
    logger.error('account deletion email failed', { error, userId: user.id }),
  );
  return { status: 'deleted', deleted_at: deleted.deleted_at, erase_after: eraseAfter.toISOString() };
}
