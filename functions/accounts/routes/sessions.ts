import { defineRoute } from '../../lib/http';
import { listSessions } from '../sessions';

/** `GET /api/auth/sessions` → `{ items: [{ id, current, created_at, last_seen_at, ip, user_agent, device }] }`. */
export const getSessions = defineRoute({
  handler: async (req) => {
    const session = req.session!;
    return { body: { items: await listSessions(session.user, session.sessionId) } };
  },
});
