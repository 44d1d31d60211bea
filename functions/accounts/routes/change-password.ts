import * as z from 'zod/mini';
import { defineRoute } from '../../lib/http';
import { changePassword as change } from '../password-change';
import { sendSecurityNotice } from '../security-notices';
import { callerOf } from '../../lib/caller';

const body = z.object({
  current_password: z._default(z.string().check(z.maxLength(1024)), ''),
  new_password: z._default(z.string(), ''),
  confirm_new_password: z._default(z.string(), ''),
});

/**
 * `POST /api/settings/password` (learner group, session route). The current session stays,
 * with a fresh cookie; every other session ends.
 */
export const changePassword = defineRoute({
  body,
  handler: async (req) => {
    const session = req.session!;
    const { cookie } = await change(session.user, session.sessionId, req.body, callerOf(req), session.authTime);
    await sendSecurityNotice(session.user, 'password_changed', callerOf(req));
    return { body: { ok: true }, cookies: cookie ? [cookie] : [] };
  },
});
