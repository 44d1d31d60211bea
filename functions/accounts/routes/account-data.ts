import * as z from 'zod/mini';
import { defineRoute } from '../../lib/http';
import { clearedSessionCookie } from '../../lib/session';
import { deleteOwnAccount } from '../self-delete';
import { callerOf } from '../../lib/caller';

/** `POST /api/account/delete` {password} → `{ ok, status, deleted_at, erase_after }`; the session ends. */
export const deleteAccountRoute = defineRoute({
  body: z.object({ password: z._default(z.string().check(z.maxLength(1024)), '') }),
  handler: async (req) => {
    const result = await deleteOwnAccount(req.session!.user, req.body.password, callerOf(req));
    return { body: { ok: true, ...result }, cookies: [clearedSessionCookie()] };
  },
});
