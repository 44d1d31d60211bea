import * as z from 'zod/mini';
import { exportAccountData, exportAuditPage } from '../accounts/data-export';
import { defineRoute } from '../lib/http';
import { program } from '../program/content';

/**
 * `GET /api/account/export` → the account's data as a JSON file download, with the newest audit
 * entries; `?audit_cursor=` (the answer's `audit_next_cursor`) → `{ audit_entries,
 * audit_next_cursor }`, the next older ones (accounts/data-export.ts: every answer stays bounded).
 * Composed here, above the domains: the answers are listed in the program's order, which the
 * accounts domain does not read.
 */
export const exportAccountRoute = defineRoute({
  query: z.object({ audit_cursor: z.optional(z.string().check(z.maxLength(1024))) }),
  handler: async (req) => {
    if (req.query.audit_cursor !== undefined) {
      const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
      return { body: await exportAuditPage(req.session!.user.id, req.query.audit_cursor), headers };
    }
    const data = await exportAccountData(req.session!.user, program().modules);
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
