import * as z from 'zod/mini';
import { keyEmail } from '../../../shared/key-values';
import { defineRoute } from '../../lib/http';
import { publicUser } from '../../lib/user-record';
import { finishLogin } from '../login';
import { clearedChallengeCookie } from '../login-challenge';
import { callerOf } from '../../lib/caller';

const body = z.object({
  email: keyEmail,
  code: z.string().check(z.maxLength(32)),
  challenge_id: z.string().check(z.maxLength(128)),
});

/** `POST /api/auth/verify-2fa` (step 2) → the session cookie and `{ ok, user }`. */
export const verifyTwoFactor = defineRoute({
  body,
  handler: async (req) => {
    const { user, cookie, deviceCookie, browserCookie } = await finishLogin(req.body, callerOf(req));
    return { body: { ok: true, user: publicUser(user) }, cookies: [cookie, deviceCookie, browserCookie, clearedChallengeCookie] };
  },
});
