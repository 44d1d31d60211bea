import * as z from 'zod/mini';
import { defineRoute } from '../../lib/http';
import { clearedSessionCookie } from '../../lib/session';
import { exportAccountData, exportAuditPage } from '../data-export';
import { deleteOwnAccount } from '../self-delete';
import { callerOf } from './caller';

/**
 * `GET /api/account/export` → the account's data as a JSON file download, with the newest audit
 * entries; `?audit_cursor=` (the answer's `audit_next_cursor`) → `{ audit_entries,
 * audit_next_cursor }`, the next older ones (data-export.ts: every answer stays bounded).
 */
export const exportAccountRoute = defineRoute({
  query: z.object({ audit_cursor: z.optional(z.string().check(z.maxLength(1024))) }),
  handler: async (req) => {
    if (req.query.audit_cursor !== undefined) {
      const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
      return { body: await exportAuditPage(req.session!.user.id, req.query.audit_cursor), headers };
    }
    const data = await exportAccountData(req.session!.user);
    const day = data.exported_at.slice(0, 10);
    return {
      body: data,
      headers: {
        'Content-Disposition': `attachment; filename="career-program-data-${day}.json"`,
        'Cache-Control': 'no-store',
      },
    };
  },
});

/** `POST /api/account/delete` {password} → `{ ok, status, deleted_at, erase_after }`; the session ends. */
export const deleteAccountRoute = defineRoute({
  body: z.object({ password: z._default(z.string().check(z.maxLength(1024)), '') }),
  handler: async (req) => {
    const result = await deleteOwnAccount(req.session!.user, req.body.password, callerOf(req));
    return { body: { ok: true, ...result }, cookies: [clearedSessionCookie()] };
  },
});
