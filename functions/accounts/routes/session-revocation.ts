import { callerOf } from '../../lib/caller';
import { defineRoute } from '../../lib/http';
import { clearedSessionCookie } from '../../lib/session';
import { revokeOtherSessions, revokeSession } from '../session-revocation';
import { identityProof } from './identity-proof';

/**
 * `DELETE /api/auth/sessions/{id}` `{ current_password }` or `{ passkey: { challenge_id, response } }`:
 * one of the caller's sessions (another person's id: 404).
 */
export const deleteSession = defineRoute({
  body: identityProof,
  handler: async (req) => {
    const session = req.session!;
    const { endedCurrent } = await revokeSession(session.user, session.sessionId, req.params.id ?? '', req.body, callerOf(req));
    return { body: { ok: true }, cookies: endedCurrent ? [clearedSessionCookie()] : [] };
  },
});

/**
 * `POST /api/auth/sessions/revoke-others` with the same proof → `{ ok, ended }`: all but the current
 * session end; the current one gets a fresh cookie.
 */
export const revokeOthers = defineRoute({
  body: identityProof,
  handler: async (req) => {
    const session = req.session!;
    const current = { sessionId: session.sessionId, authTime: session.authTime };
    const { ended, cookie } = await revokeOtherSessions(session.user, current, req.body, callerOf(req));
    return { body: { ok: true, ended }, cookies: cookie ? [cookie] : [] };
  },
});
