import { sendPasswordReset } from '../accounts/password-reset';
import { auditPut, writeAudit, type AuditInput } from '../lib/audit';
import type { Delivery } from '../lib/email';
import { conflict, notFound } from '../lib/errors';
import { endAllSessions } from '../lib/session';
import { lastActiveStatusMove, statsUpdate, unverifiedDeltas } from '../lib/stats';
import type { UserRecord, UserStatus } from '../lib/user-record';
import { indexAttributes } from '../lib/table';
import { getUserById, searchItemWrites, userIndexKeys } from '../lib/users';
import { certificateHoldWrites } from '../program/certificate-hold';
import type { AdminSoftDeleteResult } from '../../shared/admin-types';
import { adminAudit, type AdminCaller } from './context';
import { assertNotSelf, mutateUser, type UserChange } from './user-mutation';

/**
 * Account status actions of the user drawer (docs/product.md#4-states-and-transitions "User status"). Each is one transaction:
 * the user item (status, is_locked, its index keys), the per-status counters, the account's
 * search items (they carry the status the search filters on) and the audit entry.
 * Repeating an action is refused with 409 (`already_locked`, `not_locked`, `already_deleted`,
 * `not_deleted`) so a stale drawer learns that someone else acted first.
 */
const statusSet = (user: UserRecord, status: UserStatus) => ({ status, ...userIndexKeys({ ...user, status }) });

/** A transaction item that may not apply (an account never active has no last-active day). */
const present = <T>(item: T | undefined): T[] => (item ? [item] : []);

const facts = (user: Pick<UserRecord, 'status' | 'is_locked'>) => ({ status: user.status, is_locked: user.is_locked });

export async function lockUser(userId: string, caller: AdminCaller): Promise<{ status: UserStatus; is_locked: boolean }> {
  assertNotSelf(caller, userId);
  return mutateUser(userId, (user) => {
    if (user.status === 'deleted') throw conflict('already_deleted');
    if (user.status === 'locked' || user.is_locked) throw conflict('already_locked');
    const after = { status: 'locked' as const, is_locked: true };
    return {
      // session_version + 1 ends every session of the account in the same write
      set: { ...statusSet(user, 'locked'), is_locked: true, session_version: (user.session_version ?? 0) + 1 },
      extra: [
        statsUpdate({ users_locked: 1, ...unverifiedDeltas(user, { ...user, status: 'locked' }) })!,
        ...present(lastActiveStatusMove(user, 'locked')),
        ...searchItemWrites(user, { ...user, status: 'locked' }),
        auditPut(adminAudit(caller, 'admin.user.lock', { type: 'user', id: user.id }, { old: facts(user), new: after })),
      ],
      result: after,
    };
  });
}

export async function unlockUser(userId: string, caller: AdminCaller): Promise<{ status: UserStatus; is_locked: boolean }> {
  return mutateUser(userId, (user) => {
    if (user.status !== 'locked' && !user.is_locked) throw conflict('not_locked');
    const after = { status: user.status === 'deleted' ? ('deleted' as const) : ('active' as const), is_locked: false };
    return {
      set: { ...statusSet(user, after.status), is_locked: false },
      extra: [
        ...(user.status === 'locked' ? [statsUpdate({ users_locked: -1, ...unverifiedDeltas(user, { ...user, status: 'active' }) })!] : []),
        ...present(lastActiveStatusMove(user, after.status)),
        ...searchItemWrites(user, { ...user, status: after.status }),
        auditPut(adminAudit(caller, 'admin.user.unlock', { type: 'user', id: user.id }, { old: facts(user), new: after })),
      ],
      result: after,
    };
  });
}

export async function invalidateSessions(userId: string, caller: AdminCaller): Promise<void> {
  const user = await getUserById(userId);
  if (!user) throw notFound();
  await endAllSessions(userId);
  await writeAudit(adminAudit(caller, 'admin.user.invalidate_sessions', { type: 'user', id: userId }, { new: { sessions_ended: true } }));
}

/** Emails a reset link as the learner's own "forgot password" does (same token item and email). */
export async function adminPasswordReset(userId: string, caller: AdminCaller): Promise<{ delivery: Delivery }> {
  const user = await getUserById(userId);
  if (!user) throw notFound();
  if (user.status === 'deleted') throw conflict('already_deleted');
  const delivery = await sendPasswordReset(user);
  await writeAudit(adminAudit(caller, 'admin.user.reset_password', { type: 'user', id: userId }, { new: { delivery } }));
  return { delivery };
}

export type SoftDeleteResult = AdminSoftDeleteResult;

export async function softDeleteUser(userId: string, reason: string | undefined, caller: AdminCaller): Promise<SoftDeleteResult> {
  assertNotSelf(caller, userId);
  return mutateUser(userId, (user) =>
    softDeleteChange(user, reason, (values) => adminAudit(caller, 'admin.user.soft_delete', { type: 'user', id: user.id }, values)),
  );
}

/**
 * The one soft-delete write, whoever asks (an admin, or the learner from Settings): status,
 * deleted_at and reason, every session ended, the per-status counters, the certificates withheld
 * from the public check (functions/program/certificate-hold.ts) and the audit entry, in one
 * transaction (through `mutateUser`). `bySelf` marks an account its owner deleted: only such an
 * account may restore itself (functions/accounts/account-restore.ts).
 */
export async function softDeleteChange(
  user: UserRecord,
  reason: string | undefined,
  audit: (values: { old: Record<string, unknown>; new: Record<string, unknown> }) => AuditInput,
  bySelf = false,
): Promise<UserChange<SoftDeleteResult>> {
  if (user.status === 'deleted') throw conflict('already_deleted');
  const deletedReason = reason?.trim() ? reason.trim() : null;
  const deletedAt = new Date().toISOString();
  const result: SoftDeleteResult = { status: 'deleted', deleted_at: deletedAt, deleted_reason: deletedReason };
  return {
    set: {
      ...statusSet({ ...user, deleted_at: deletedAt }, 'deleted'), // also enters the erasure index
      deleted_at: deletedAt,
      ...(deletedReason ? { deleted_reason: deletedReason } : {}),
      ...(bySelf ? { deleted_by: 'self' } : {}),
      // a deleted account has no session (the session check also refuses non-active accounts)
      session_version: (user.session_version ?? 0) + 1,
    },
    remove: [...(deletedReason ? [] : ['deleted_reason']), ...(bySelf ? [] : ['deleted_by'])],
    extra: [
      // users_total counts accounts not deleted (stats.ts)
      statsUpdate({
        users_total: -1,
        users_verified: user.verified ? -1 : 0,
        users_locked: user.status === 'locked' ? -1 : 0,
        users_deleted: 1,
        ...unverifiedDeltas(user, { ...user, status: 'deleted' }),
      })!,
      ...present(lastActiveStatusMove(user, 'deleted')),
      ...searchItemWrites(user, { ...user, status: 'deleted' }),
      ...(await certificateHoldWrites(user.id, true, deletedAt)),
      auditPut(audit({ old: facts(user), new: { status: 'deleted', deleted_at: deletedAt, deleted_reason: deletedReason } })),
    ],
    result,
  };
}

/** Back to active (a lock before the delete is not restored: the admin can lock again). */
export async function restoreUser(userId: string, caller: AdminCaller): Promise<{ status: UserStatus }> {
  return mutateUser(userId, (user) =>
    restoreChange(user, (values) => adminAudit(caller, 'admin.user.restore', { type: 'user', id: user.id }, values)),
  );
}

/**
 * The one restore write, whoever asks (an admin, or the learner within the retention period):
 * back to active in every list and counter, out of the erasure index, the certificates verifying
 * again, and the audit entry, in one transaction (through `mutateUser`).
 */
export async function restoreChange(
  user: UserRecord,
  audit: (values: { old: Record<string, unknown>; new: Record<string, unknown> }) => AuditInput,
): Promise<UserChange<{ status: UserStatus }>> {
  if (user.status !== 'deleted') throw conflict('not_deleted');
  return {
    set: { ...statusSet(user, 'active'), is_locked: false },
    // restored before the erasure: out of the erasure index at once
    remove: ['deleted_at', 'deleted_reason', 'deleted_by', ...indexAttributes('erasureDue')],
    extra: [
      statsUpdate({
        users_total: 1,
        users_verified: user.verified ? 1 : 0,
        users_deleted: -1,
        ...unverifiedDeltas(user, { ...user, status: 'active' }),
      })!,
      ...present(lastActiveStatusMove(user, 'active')),
      ...searchItemWrites(user, { ...user, status: 'active' }),
      ...(await certificateHoldWrites(user.id, false)),
      auditPut(
        audit({
          old: { status: 'deleted', deleted_at: user.deleted_at ?? null },
          new: { status: 'active', is_locked: false },
        }),
      ),
    ],
    result: { status: 'active' as const },
  };
}
