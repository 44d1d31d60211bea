import { defineRoute } from '../../lib/http';
import { publicUser } from '../../lib/user-record';

/** `GET /api/auth/me` (session route: the chain answers 401 without one). */
export const me = defineRoute({
  handler: async (req) => ({ body: publicUser(req.session!.user) }),
});
