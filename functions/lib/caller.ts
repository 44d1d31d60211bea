import type { AuditInput } from './audit';
import type { ApiRequest } from './http';
import type { UserRecord } from './user-record';

/** Who is asking, as the domain needs it (no HTTP types): for rate limits and audit entries. */
export interface Caller {
  ip: string;
  userAgent: string;
  /** The request's Cookie header, for the trusted-device cookie of sign-in (trusted-device.ts). */
  cookies?: string;
}

/** The request facts the domains need (they know nothing of HTTP). */
export const callerOf = (req: Pick<ApiRequest, 'ip' | 'userAgent' | 'cookies'>): Caller => ({
  ip: req.ip,
  userAgent: req.userAgent,
  cookies: req.cookies,
});

/**
 * An audit entry about an account (entity user/<id>). Only non-secret facts go in values:
 * never passwords, hashes, codes or tokens.
 */
export function accountAudit(
  action: string,
  user: Pick<UserRecord, 'id' | 'email'>,
  caller: Caller,
  values: { old?: Record<string, unknown>; new?: Record<string, unknown> } = {},
  actor: Pick<UserRecord, 'id' | 'email'> | null = user,
): AuditInput {
  return {
    action,
    actor: actor ? { id: actor.id, email: actor.email } : undefined,
    entityType: 'user',
    entityId: user.id,
    oldValues: values.old ?? null,
    newValues: values.new ?? null,
    ip: caller.ip,
    userAgent: caller.userAgent,
  };
}
