import * as z from 'zod/mini';
import { keyEmail } from '../../../shared/key-values';
import { defineRoute } from '../../lib/http';
import { startLogin } from '../login';
import { callerOf } from '../../lib/caller';

const body = z.object({ email: keyEmail, password: z.string().check(z.maxLength(1024)) });

/** `POST /api/auth/login` (step 1) → `{ two_factor_pending: true, challenge_id }`, no session yet. */
export const login = defineRoute({
  body,
  handler: async (req) => {
    const { challengeId, browserCookie } = await startLogin(req.body, callerOf(req));
    return { body: { two_factor_pending: true, challenge_id: challengeId }, cookies: [browserCookie] };
  },
});
