import { defineRoute } from '../../lib/http';
import { clearedSessionCookie } from '../../lib/session';
import { listSessions, revokeOtherSessions, revokeSession } from '../sessions';
import { callerOf } from '../../lib/caller';

/** `GET /api/auth/sessions` → `{ items: [{ id, current, created_at, last_seen_at, ip, user_agent, device }] }`. */
export const getSessions = defineRoute({
  handler: async (req) => {
    const session = req.session!;
    return { body: { items: await listSessions(session.user, session.sessionId) } };
  },
});

/** `DELETE /api/auth/sessions/{id}`: one of the caller's sessions (another person's id: 404). */
export const deleteSession = defineRoute({
  handler: async (req) => {
    const session = req.session!;
    const { endedCurrent } = await revokeSession(session.user, session.sessionId, req.params.id ?? '', callerOf(req));
    return { body: { ok: true }, cookies: endedCurrent ? [clearedSessionCookie()] : [] };
  },
});

/** `POST /api/auth/sessions/revoke-others` → `{ ok, ended }`: all but the current session end. */
export const revokeOthers = defineRoute({
  handler: async (req) => {
    const session = req.session!;
    const { ended } = await revokeOtherSessions(session.user, session.sessionId, callerOf(req));
    return { body: { ok: true, ended } };
  },
});
