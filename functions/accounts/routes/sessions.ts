import { defineRoute } from '../../lib/http';
import { clearedSessionCookie } from '../../lib/session';
import { listSessions, revokeOtherSessions, revokeSession } from '../sessions';
import { callerOf } from '../../lib/caller';
import { identityProof } from './identity-proof';

/** `GET /api/auth/sessions` → `{ items: [{ id, current, created_at, last_seen_at, ip, user_agent, device }] }`. */
export const getSessions = defineRoute({
  handler: async (req) => {
    const session = req.session!;
    return { body: { items: await listSessions(session.user, session.sessionId) } };
  },
});

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
