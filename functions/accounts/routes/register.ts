import * as z from 'zod/mini';
import { defineRoute } from '../../lib/http';
import { register as registerAccount } from '../registration';
import { callerOf } from '../../lib/caller';

/** Every field optional here: the domain reports empty ones with the product's own codes (docs/product.md#8-error-catalogue). */
const body = z.object({
  first_name: z.optional(z.string()),
  last_name: z.optional(z.string()),
  email: z.optional(z.string()),
  password: z.optional(z.string()),
  passwordConfirm: z.optional(z.string()),
  /** the browser's IANA zone (reminders in the learner's morning); a name Intl does not know: 400 `invalid_time_zone` */
  time_zone: z.optional(z.string()),
});

/** `POST /api/auth/register` → 201 `{ ok, verification_pending }`. */
export const register = defineRoute({
  body,
  handler: async (req) => {
    await registerAccount(req.body, callerOf(req));
    return { status: 201, body: { ok: true, verification_pending: true } };
  },
});
