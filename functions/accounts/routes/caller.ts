import type { ApiRequest } from '../../lib/http';
import type { Caller } from '../context';

/** The request facts the account domain needs (it knows nothing of HTTP). */
export const callerOf = (req: Pick<ApiRequest, 'ip' | 'userAgent' | 'cookies'>): Caller => ({
  ip: req.ip,
  userAgent: req.userAgent,
  cookies: req.cookies,
});
