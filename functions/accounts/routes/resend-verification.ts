import * as z from 'zod/mini';
import { keyEmail } from '../../../shared/key-values';
import { defineRoute } from '../../lib/http';
import { resendVerification as resend } from '../code-resend';
import { callerOf } from '../../lib/caller';

const body = z.object({ email: keyEmail });

/** `POST /api/auth/resend-verification` → 202 `{ ok: true }`, the same for every address. */
export const resendVerification = defineRoute({
  body,
  handler: async (req) => {
    await resend(req.body, callerOf(req));
    return { status: 202, body: { ok: true } };
  },
});
