import * as z from 'zod';
import { defineRoute } from '../../lib/http';
import { verifyEmail as verify } from '../verification';
import { callerOf } from './caller';

const body = z.object({ email: z.string().max(320), code: z.string().max(32) });

/** `POST /api/auth/verify-email` → `{ ok: true }` or 400 `invalid_code`. */
export const verifyEmail = defineRoute({
  body,
  handler: async (req) => {
    await verify(req.body, callerOf(req));
    return { body: { ok: true, verified: true } };
  },
});
