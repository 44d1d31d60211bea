import * as z from 'zod/mini';
import { keyEmail } from '../../../shared/key-values';
import { defineRoute } from '../../lib/http';
import { resendLoginCode as resend } from '../code-resend';
import { callerOf } from '../../lib/caller';

const body = z.object({ email: keyEmail, challenge_id: z.string().check(z.maxLength(128)) });

/** `POST /api/auth/resend-2fa` → `{ two_factor_pending: true, challenge_id }` (a fresh challenge). */
export const resendLoginCode = defineRoute({
  body,
  handler: async (req) => {
    const { challengeId, browserCookie } = await resend(req.body, callerOf(req));
    return { body: { two_factor_pending: true, challenge_id: challengeId }, cookies: [browserCookie] };
  },
});
