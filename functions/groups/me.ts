import { defineRoute } from '../lib/http';
import { publicUser } from '../lib/user-record';
import { progressSnapshot } from '../program/progress-snapshot';

/**
 * `GET /api/auth/me` (session route: the chain answers 401 without one): the user and their
 * progress. Composed here, above the domains: the accounts domain knows nothing of the program.
 */
export const me = defineRoute({
  handler: async (req) => {
    const user = req.session!.user;
    return { body: { ...publicUser(user), progress: await progressSnapshot(user) } };
  },
});
