import type { ApiRequest } from '../../lib/http';
import type { AdminCaller } from '../context';

/** The acting admin and request facts (the chain guarantees an admin session on these routes). */
export const adminCallerOf = (req: Pick<ApiRequest, 'session' | 'ip' | 'userAgent'>): AdminCaller => ({
  admin: { id: req.session!.user.id, email: req.session!.user.email },
  ip: req.ip,
  userAgent: req.userAgent,
});
