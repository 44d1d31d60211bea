import { dayOf } from '../lib/activity';
import { AUDIT_ACTION } from '../lib/audit';
import { badRequest, conflict, notFound } from '../lib/errors';
import { enqueue } from '../lib/queue';
import { getUserById } from '../lib/users';
import { adminAudit, assertNotSelf, type AdminCaller } from '../lib/admin-caller';
import { assertAccepts } from '../lib/account-states';
import { hardDeleteAvailableAt } from '../lib/retention';
import {
  INLINE_BUDGET_MS,
  SAFETY_DELAY_SECONDS,
  type PurgeJob,
  type PurgeOptions,
  readJob,
  startPurge,
  continuePurge,
  type PurgeMessage,
} from './purge-job';
import { currentDate } from '../lib/clock';

/**
 * Hard delete (docs/product.md#4-states-and-transitions): only a soft-deleted account, after the retention window, with the
 * typed email. Removes every item of the account — its USER#<id> partition, the EMAIL# guard,
 * the search items, its ACTIVITY#<day> items (found by key over the activity TTL), the login
 * back-off — and takes it out of every aggregate it was counted in. Audit entries stay, with the
 * account's personal data (email, names) replaced by ANONYMOUS (audit-anonymisation.ts).
 * This is the request's entry: the checks, then the purge job (purge-job.ts); what it would
 * remove is shown first by hard-delete-preview.ts.
 */
export async function hardDeleteUser(
  userId: string,
  confirmEmail: string | undefined,
  caller: AdminCaller,
  now = currentDate(),
  options: PurgeOptions = {},
): Promise<{ deleted: boolean; status: PurgeJob['status']; counts: Record<string, number> }> {
  assertNotSelf(caller, userId);
  const user = await getUserById(userId);
  if (!user) {
    // a rerun after the purge finished answers what it did
    const job = await readJob(userId);
    if (job?.status === 'done') return { deleted: true, status: 'done', counts: job.counts };
    throw notFound();
  }
  // a deleted account starts its purge; one being erased resumes it (functions/lib/account-states.ts)
  assertAccepts('hardDelete', user);
  if (user.status === 'deleted') {
    const availableAt = hardDeleteAvailableAt(user)!;
    if (now.getTime() < availableAt.getTime()) throw conflict('retention_active', { available_on: dayOf(availableAt) });
  }
  if (!confirmEmail || confirmEmail.trim().toLowerCase() !== user.email_lower) throw badRequest('email_mismatch');

  if (user.status === 'deleted') {
    await startPurge(
      user,
      adminAudit(
        caller,
        AUDIT_ACTION.adminHardDelete,
        { type: 'user', id: user.id },
        { old: { status: 'deleted', deleted_at: user.deleted_at ?? null }, new: { hard_deleted: true } },
      ),
      now,
    );
  }
  // Sent before any step: even if this request dies, the worker finishes the purge.
  await enqueue('purge', { user_id: userId } satisfies PurgeMessage, SAFETY_DELAY_SECONDS);
  const started = performance.now();
  const job = await continuePurge(userId, { timeLeftMs: options.timeLeftMs ?? (() => INLINE_BUDGET_MS - (performance.now() - started)) });
  if (job.status === 'done') return { deleted: true, status: 'done', counts: job.counts };
  await enqueue('purge', { user_id: userId } satisfies PurgeMessage);
  return { deleted: false, status: 'purging', counts: job.counts };
}
