import type { AdminSoftDeleteResult } from '../../shared/admin-types';
import { auditPuts, type AuditInput } from '../lib/audit';
import { certificateHoldWrites } from '../lib/certificate-hold';
import { lastActiveStatusMove, statsUpdate, unverifiedDeltas } from '../lib/stats';
import type { UserRecord, UserStatus } from '../lib/user-record';
import { indexAttributes } from '../lib/table';
import { searchItemWrites, userIndexKeys } from '../lib/users';
import type { UserChange } from './user-mutation';
import { nowIso } from '../lib/clock';

/**
 * The account-status writes shared by the admin's status actions (admin/user-status.ts) and the
 * learner's own deletion (self-delete.ts): a status change moves the user item's index keys, the
 * per-status counters and the account's search items together.
 */
export const statusSet = (user: UserRecord, status: UserStatus) => ({ status, ...userIndexKeys({ ...user, status }) });

/** A transaction item that may not apply (an account never active has no last-active day). */
export const present = <T>(item: T | undefined): T[] => (item ? [item] : []);

export const statusFacts = (user: Pick<UserRecord, 'status' | 'is_locked'>) => ({ status: user.status, is_locked: user.is_locked });

export type SoftDeleteResult = AdminSoftDeleteResult;

/**
 * The one soft-delete write, whoever asks (an admin, or the learner from Settings): status,
 * deleted_at and reason, every session ended, the per-status counters, the certificates withheld
 * from the public check (functions/lib/certificate-hold.ts) and the audit entry, in one
 * transaction (through `mutateUser`, with the action `softDelete`). `bySelf` marks an account its owner deleted: only such an
 * account may restore itself (functions/accounts/account-restore.ts).
 */
export async function softDeleteChange(
  user: UserRecord,
  reason: string | undefined,
  audit: (values: { old: Record<string, unknown>; new: Record<string, unknown> }) => AuditInput,
  bySelf = false,
): Promise<UserChange<SoftDeleteResult>> {
  // the statuses it accepts are mutateUser's 'softDelete' (functions/lib/account-states.ts)
  const deletedReason = reason?.trim() ? reason.trim() : null;
  const deletedAt = nowIso();
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
      ...auditPuts(audit({ old: statusFacts(user), new: { status: 'deleted', deleted_at: deletedAt, deleted_reason: deletedReason } })),
    ],
    result,
  };
}

/**
 * The one restore write, whoever asks (an admin, or the learner within the retention period):
 * back to active in every list and counter, out of the erasure index, the certificates verifying
 * again, and the audit entry, in one transaction (through `mutateUser`, with the action `restore`).
 */
export async function restoreChange(
  user: UserRecord,
  audit: (values: { old: Record<string, unknown>; new: Record<string, unknown> }) => AuditInput,
): Promise<UserChange<{ status: UserStatus }>> {
  // only a deleted account: mutateUser's 'restore' (functions/lib/account-states.ts)
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
      ...auditPuts(
        audit({
          old: { status: 'deleted', deleted_at: user.deleted_at ?? null },
          new: { status: 'active', is_locked: false },
        }),
      ),
    ],
    result: { status: 'active' as const },
  };
}
