import { countPasskeys } from '../accounts/passkey-records';
import { config } from '../lib/config';
import { notFound } from '../lib/errors';
import { hardDeleteAvailableAt } from '../lib/retention';
import { getUserById } from '../lib/users';
import { getUserCertificate } from '../program/certificate';
import type { AdminUserDetail } from '../../shared/admin-types';
import { enrollmentsOf } from './enrollment-view';
import { currentDate } from '../lib/clock';

/** The response of `GET /api/admin/users/{id}`: the shape the console reads (shared/admin-types.ts). */
export type UserDetail = AdminUserDetail;

const certificateOf = (record: Awaited<ReturnType<typeof getUserCertificate>>): UserDetail['certificate'] =>
  record
    ? {
        verification_code: record.verification_code,
        issued_at: record.issued_at,
        completed_at: record.completed_at,
        revoked_at: record.revoked_at ?? null,
      }
    : null;

export async function userDetail(userId: string, now = currentDate()): Promise<UserDetail> {
  const user = await getUserById(userId);
  if (!user) throw notFound();
  const availableAt = hardDeleteAvailableAt(user);
  // independent reads: in parallel (docs/scale-reads.md)
  const [enrollments, passkeyCount] = await Promise.all([enrollmentsOf(user.id), countPasskeys(user.id)]);
  return {
    id: user.id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    status: user.status,
    is_locked: Boolean(user.is_locked),
    role: user.role,
    verified: typeof user.verified === 'boolean' ? user.verified : null,
    created_at: user.created_at,
    last_login_at: user.last_login_at ?? null,
    recent_activity: {
      last_login_at: user.last_login_at ?? null,
      last_progress_at: user.last_progress_at ?? null,
      last_enrollment_at: user.last_enrollment_at ?? null,
    },
    retention_days: config().retentionDays,
    deleted_at: user.deleted_at ?? null,
    deleted_reason: user.deleted_reason ?? null,
    hard_delete_ready: availableAt !== null && now.getTime() >= availableAt.getTime(),
    hard_delete_available_at: availableAt?.toISOString() ?? null,
    enrollments,
    passkey_count: passkeyCount,
    email_suppressed: user.email_suppressed ?? null,
    certificate: certificateOf(await getUserCertificate(user.id)),
  };
}
