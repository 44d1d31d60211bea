import type { AuditInput } from '../lib/audit';
import type { UserRecord } from '../lib/user-record';

/** The administrator acting and the request facts the audit entry records (no HTTP types). */
export interface AdminCaller {
  admin: Pick<UserRecord, 'id' | 'email'>;
  ip: string;
  userAgent: string;
}

/** An audit entry for an admin action. Values hold only non-secret facts (never hashes or tokens). */
export function adminAudit(
  caller: AdminCaller,
  action: string,
  entity: { type: 'user' | 'enrollment' | 'program'; id: string },
  values: { old?: Record<string, unknown> | null; new?: Record<string, unknown> | null } = {},
): AuditInput {
  return {
    action,
    actor: { id: caller.admin.id, email: caller.admin.email },
    entityType: entity.type,
    entityId: entity.id,
    oldValues: values.old ?? null,
    newValues: values.new ?? null,
    ip: caller.ip,
    userAgent: caller.userAgent,
  };
}
