import * as z from 'zod/mini';
import { keyEmail } from '../../../shared/key-values';
import { defineRoute } from '../../lib/http';
import { publicUser } from '../../lib/user-record';
import { finishRestore, startRestore } from '../account-restore';
import { clearedChallengeCookie } from '../login-challenge';
import { callerOf } from '../../lib/caller';

const startBody = z.object({ email: keyEmail, password: z.string().check(z.maxLength(1024)) });

/** `POST /api/auth/restore` → `{ restore_pending: true, challenge_id }`: the restore code is emailed. */
export const restoreAccount = defineRoute({
  body: startBody,
  handler: async (req) => {
    const { challengeId, browserCookie } = await startRestore(req.body, callerOf(req));
    return { body: { restore_pending: true, challenge_id: challengeId }, cookies: [browserCookie] };
  },
});

const verifyBody = z.object({
  email: keyEmail,
  code: z.string().check(z.maxLength(32)),
  challenge_id: z.string().check(z.maxLength(128)),
});

/** `POST /api/auth/restore/verify` → the account is active again, with a session: `{ ok, user }`. */
export const verifyRestore = defineRoute({
  body: verifyBody,
  handler: async (req) => {
    const { user, cookie, deviceCookie, browserCookie } = await finishRestore(req.body, callerOf(req));
    return { body: { ok: true, user: publicUser(user) }, cookies: [cookie, deviceCookie, browserCookie, clearedChallengeCookie] };
  },
});
