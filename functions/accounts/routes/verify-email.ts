import * as z from 'zod/mini';
import { keyEmail } from '../../../shared/key-values';
import { defineRoute } from '../../lib/http';
import { verifyEmail as verify } from '../verification';
import { callerOf } from '../../lib/caller';

const body = z.object({ email: keyEmail, code: z.string().check(z.maxLength(32)) });

/** `POST /api/auth/verify-email` → `{ ok: true }` or 400 `invalid_code`. */
export const verifyEmail = defineRoute({
  body,
  handler: async (req) => {
    await verify(req.body, callerOf(req));
    return { body: { ok: true, verified: true } };
  },
});
