import * as z from 'zod/mini';

/** The browser's JSON-encoded credential; the library checks its inner structure. */
export const credentialResponse = z.looseObject({ id: z.string().check(z.maxLength(1400)), type: z.string().check(z.maxLength(32)) });

/**
 * The body of a request that asks "Confirm it's you" (../reauthentication.ts): `{ current_password }`
 * or `{ passkey: { challenge_id, response } }`; neither → 403 `reauthentication_required`.
 */
export const identityProof = z.object({
  current_password: z.optional(z.string().check(z.maxLength(1024))),
  passkey: z.optional(z.object({ challenge_id: z.string().check(z.maxLength(128)), response: credentialResponse })),
});
