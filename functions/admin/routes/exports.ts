import * as z from 'zod/mini';
import { defineRoute, type ApiResult } from '../../lib/http';
import { exportAuditLog, exportUsers, type CsvExport } from '../exports';
import { auditFilters } from './audit-logs';
import { searchText } from './users';
import { adminCallerOf } from '../../lib/admin-caller';

const text = z.optional(z.string().check(z.maxLength(1000)));

const csvResponse = (file: CsvExport): ApiResult => ({
  // The byte order mark tells Excel the file is UTF-8 (without it "Zoë" opens as "ZoÃ«").
  rawBody: `\uFEFF${file.csv}`,
  headers: {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${file.fileName}"`,
    'Cache-Control': 'no-store',
    'X-Export-Rows': String(file.rows),
    ...(file.truncated ? { 'X-Export-Truncated': 'true' } : {}),
  },
});

/** `GET /api/admin/users/export.csv?status&filter&query` → text/csv (400 `invalid_status` / `invalid_filter`). */
export const exportUsersRoute = defineRoute({
  query: z.object({ query: searchText, filter: text, status: text }),
  handler: async (req) => csvResponse(await exportUsers(req.query, adminCallerOf(req))),
});

/** `GET /api/admin/audit-logs/export.csv?actor&entity_type&entity_id&action&date_from&date_to` → text/csv (400 date codes as the log). */
export const exportAuditLogRoute = defineRoute({
  query: z.object(auditFilters),
  handler: async (req) => csvResponse(await exportAuditLog(req.query, adminCallerOf(req))),
});
