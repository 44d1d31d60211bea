import * as z from 'zod/mini';
import { keyEmail } from '../../../shared/key-values';
import { defineRoute } from '../../lib/http';
import { confirmPasswordReset, requestPasswordReset, validateResetToken } from '../password-reset';
import { callerOf } from '../../lib/caller';

/** `POST /api/auth/password-reset/request` → always `{ ok: true }` (no enumeration). */
export const passwordResetRequest = defineRoute({
  body: z.object({ email: keyEmail }),
  handler: async (req) => {
    await requestPasswordReset(req.body.email, callerOf(req));
    return { body: { ok: true } };
  },
});

/** `GET /api/auth/password-reset/validate?token=` → `{ ok: true }` or 400 `invalid_or_expired`. */
export const passwordResetValidate = defineRoute({
  query: z.object({ token: z.optional(z.string()) }),
  handler: async (req) => {
    await validateResetToken(req.query.token, callerOf(req));
    return { body: { ok: true } };
  },
});

/** `POST /api/auth/password-reset/confirm` → `{ ok: true }`; every session of the account ends. */
export const passwordResetConfirm = defineRoute({
  body: z.object({ token: z.optional(z.string()), password: z._default(z.string(), ''), password2: z._default(z.string(), '') }),
  handler: async (req) => {
    const { deviceCookie } = await confirmPasswordReset(req.body, callerOf(req));
    return { body: { ok: true }, cookies: [deviceCookie] };
  },
});
