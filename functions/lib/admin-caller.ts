import type { AuditInput } from './audit';
import { badRequest } from './errors';
import type { ApiRequest } from './http';
import type { UserRecord } from './user-record';

/** The administrator acting and the request facts the audit entry records (no HTTP types). */
export interface AdminCaller {
  admin: Pick<UserRecord, 'id' | 'email'>;
  ip: string;
  userAgent: string;
}

/** The acting admin and request facts (the chain guarantees an admin session on admin routes). */
export const adminCallerOf = (req: Pick<ApiRequest, 'session' | 'ip' | 'userAgent'>): AdminCaller => ({
  admin: { id: req.session!.user.id, email: req.session!.user.email },
  ip: req.ip,
  userAgent: req.userAgent,
});

/** Admins cannot lock or delete their own account (they would lock themselves out). */
export function assertNotSelf(caller: AdminCaller, userId: string): void {
  if (caller.admin.id === userId) throw badRequest('cannot_target_self');
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
