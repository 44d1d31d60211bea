import { writeAudit } from '../../lib/audit';
import { defineRoute } from '../../lib/http';
import { clearedSessionCookie, endSession } from '../../lib/session';
import { accountAudit, callerOf } from '../../lib/caller';

/** `POST /api/auth/logout`: ends this session server-side; 200 and a cleared cookie in any case. */
export const logout = defineRoute({
  optionalSession: true,
  handler: async (req) => {
    const session = req.session;
    if (session) {
      await endSession(session.user.id, session.sessionId);
      await writeAudit(accountAudit('auth.logout', session.user, callerOf(req)));
    }
    return { body: { ok: true }, cookies: [clearedSessionCookie()] };
  },
});
