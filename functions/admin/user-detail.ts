import { countPasskeys } from '../accounts/passkey-records';
import { config } from '../lib/config';
import { notFound } from '../lib/errors';
import type { UserRecord } from '../lib/user-record';
import { getUserById } from '../lib/users';
import { getUserCertificate } from '../program/certificate';
import { enrollmentsOf, type AdminEnrollment } from './enrollment-view';

const DAY_MS = 24 * 3600 * 1000;

/** When a soft-deleted account may be hard-deleted: deleted_at + the retention window. */
export function hardDeleteAvailableAt(user: Pick<UserRecord, 'status' | 'deleted_at'>): Date | null {
  if (user.status !== 'deleted' || !user.deleted_at) return null;
  return new Date(Date.parse(user.deleted_at) + config().retentionDays * DAY_MS);
}

export interface UserDetail {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  status: UserRecord['status'];
  is_locked: boolean;
  role: UserRecord['role'];
  verified: boolean | null;
  created_at: string;
  last_login_at: string | null;
  recent_activity: { last_login_at: string | null; last_progress_at: string | null; last_enrollment_at: string | null };
  retention_days: number;
  deleted_at: string | null;
  deleted_reason: string | null;
  hard_delete_ready: boolean;
  hard_delete_available_at: string | null;
  enrollments: AdminEnrollment[];
  /** How many passkeys the account has (docs/account-security.md). */
  passkey_count: number;
  /** SES reported a hard bounce or a spam complaint for the address (functions/lib/email-suppression.ts). */
  email_suppressed: 'bounce' | 'complaint' | null;
  /** The learner's certificate of completion (docs/product.md#certificates), null when none was issued. */
  certificate: { verification_code: string; issued_at: string; completed_at: string; revoked_at: string | null } | null;
}

const certificateOf = (record: Awaited<ReturnType<typeof getUserCertificate>>): UserDetail['certificate'] =>
  record ? { verification_code: record.verification_code, issued_at: record.issued_at, completed_at: record.completed_at, revoked_at: record.revoked_at ?? null } : null;

export async function userDetail(userId: string, now = new Date()): Promise<UserDetail> {
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
