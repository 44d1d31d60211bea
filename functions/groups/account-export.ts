import * as z from 'zod/mini';
import { exportAccountData, exportAuditPage, exportDocument } from '../accounts/data-export';
import { config } from '../lib/config';
import { storeExport } from '../lib/export-objects';
import { defineRoute } from '../lib/http';
import { program } from '../program/content';

/**
 * `GET /api/account/export` → the account's data as a JSON file download, with the newest audit
 * entries; `?audit_cursor=` (the answer's `audit_next_cursor`) → `{ audit_entries,
 * audit_next_cursor }`, the next older ones (accounts/data-export.ts: every answer stays bounded).
 * An account whose document does not fit in one answer (more history than one page, or more
 * than EXPORT_INLINE_MAX_BYTES) gets `{ download_url, expires_at }` instead: the whole document
 * as an object behind a short-lived link (lib/export-objects.ts).
 * Composed here, above the domains: the answers are listed in the program's order, which the
 * accounts domain does not read.
 */
export const exportAccountRoute = defineRoute({
  query: z.object({ audit_cursor: z.optional(z.string().check(z.maxLength(1024))) }),
  handler: async (req) => {
    const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
    if (req.query.audit_cursor !== undefined) return { body: await exportAuditPage(req.session!.user.id, req.query.audit_cursor), headers };
    const data = await exportAccountData(req.session!.user, program().modules);
    const fileName = `career-program-data-${data.exported_at.slice(0, 10)}.json`;
    const fits = !data.audit_next_cursor && Buffer.byteLength(JSON.stringify(data)) <= config().exportInlineMaxBytes;
    if (fits) return { body: data, headers: { 'Content-Disposition': `attachment; filename="${fileName}"`, ...headers } };
    return { body: await storeExport(await exportDocument(req.session!.user.id, data), fileName), headers };
  },
});
