import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { sendPasswordReset } from '../accounts/password-reset';
import { assertAccepts, BEING_ERASED } from '../lib/account-states';
import { present, restoreChange, softDeleteChange, statusFacts, statusSet, type SoftDeleteResult } from '../accounts/status-change';
import { auditPuts, writeAudit } from '../lib/audit';
import type { Delivery } from '../lib/email';
import { conflict, notFound } from '../lib/errors';
import { endAllSessions } from '../lib/session';
import { lastActiveStatusMove, statsUpdate, unverifiedDeltas } from '../lib/stats';
import type { UserStatus } from '../lib/user-record';
import { getUserById, searchItemWrites } from '../lib/users';
import { adminAudit, assertNotSelf, type AdminCaller } from '../lib/admin-caller';
import { mutateUser } from '../accounts/user-mutation';

/**
 * Account status actions of the user drawer (docs/product.md#4-states-and-transitions "User status"). Each is one transaction:
 * the user item (status, is_locked, its index keys), the per-status counters, the account's
 * search items (they carry the status the search filters on) and the audit entry.
 * Repeating an action is refused with 409 (`already_locked`, `not_locked`, `already_deleted`,
 * `not_deleted`) so a stale drawer learns that someone else acted first. Each names the statuses
 * it accepts (functions/lib/account-states.ts): an account being erased refuses them all (409
 * `account_being_erased`).
 */

export async function lockUser(userId: string, caller: AdminCaller): Promise<{ status: UserStatus; is_locked: boolean }> {
  assertNotSelf(caller, userId);
  return mutateUser(userId, 'lock', (user) => {
    if (user.is_locked) throw conflict('already_locked');
    const after = { status: 'locked' as const, is_locked: true };
    return {
      // session_version + 1 ends every session of the account in the same write
      set: { ...statusSet(user, 'locked'), is_locked: true, session_version: (user.session_version ?? 0) + 1 },
      extra: [
        statsUpdate({ users_locked: 1, ...unverifiedDeltas(user, { ...user, status: 'locked' }) })!,
        ...present(lastActiveStatusMove(user, 'locked')),
        ...searchItemWrites(user, { ...user, status: 'locked' }),
        ...auditPuts(adminAudit(caller, 'admin.user.lock', { type: 'user', id: user.id }, { old: statusFacts(user), new: after })),
      ],
      result: after,
    };
  });
}

export async function unlockUser(userId: string, caller: AdminCaller): Promise<{ status: UserStatus; is_locked: boolean }> {
  return mutateUser(userId, 'unlock', (user) => {
    if (user.status !== 'locked' && !user.is_locked) throw conflict('not_locked');
    const after = { status: user.status === 'deleted' ? ('deleted' as const) : ('active' as const), is_locked: false };
    return {
      set: { ...statusSet(user, after.status), is_locked: false },
      extra: [
        ...(user.status === 'locked' ? [statsUpdate({ users_locked: -1, ...unverifiedDeltas(user, { ...user, status: 'active' }) })!] : []),
        ...present(lastActiveStatusMove(user, after.status)),
        ...searchItemWrites(user, { ...user, status: after.status }),
        ...auditPuts(adminAudit(caller, 'admin.user.unlock', { type: 'user', id: user.id }, { old: statusFacts(user), new: after })),
      ],
      result: after,
    };
  });
}

export async function invalidateSessions(userId: string, caller: AdminCaller): Promise<void> {
  const user = await getUserById(userId);
  if (!user) throw notFound();
  assertAccepts('invalidateSessions', user);
  // the bump holds the accepted statuses in its condition: it never lands on an account being erased
  await endAllSessions(userId, 'invalidateSessions').catch((error: unknown) => {
    if (error instanceof ConditionalCheckFailedException) throw conflict(BEING_ERASED);
    throw error;
  });
  await writeAudit(adminAudit(caller, 'admin.user.invalidate_sessions', { type: 'user', id: userId }, { new: { sessions_ended: true } }));
}

/** Emails a reset link as the learner's own "forgot password" does (same token item and email). */
export async function adminPasswordReset(userId: string, caller: AdminCaller): Promise<{ delivery: Delivery }> {
  const user = await getUserById(userId);
  if (!user) throw notFound();
  assertAccepts('sendPasswordReset', user);
  const delivery = await sendPasswordReset(user);
  await writeAudit(adminAudit(caller, 'admin.user.reset_password', { type: 'user', id: userId }, { new: { delivery } }));
  return { delivery };
}

export async function softDeleteUser(userId: string, reason: string | undefined, caller: AdminCaller): Promise<SoftDeleteResult> {
  assertNotSelf(caller, userId);
  return mutateUser(userId, 'softDelete', (user) =>
    softDeleteChange(user, reason, (values) => adminAudit(caller, 'admin.user.soft_delete', { type: 'user', id: user.id }, values)),
  );
}

/** Back to active (a lock before the delete is not restored: the admin can lock again). */
export async function restoreUser(userId: string, caller: AdminCaller): Promise<{ status: UserStatus }> {
  return mutateUser(userId, 'restore', (user) =>
    restoreChange(user, (values) => adminAudit(caller, 'admin.user.restore', { type: 'user', id: user.id }, values)),
  );
}
