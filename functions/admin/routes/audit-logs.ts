import * as z from 'zod/mini';
import { keyText } from '../../../shared/key-values';
import { defineRoute } from '../../lib/http';
import { auditLog } from '../audit-log';

const text = z.optional(z.string());
/**
 * Filters become key values (the reference partitions): bounded well below DynamoDB's key sizes
 * (a longer one was a 500, docs/api.md#7-fuzzing), and without the control characters and line
 * breaks IAM's key patterns do not match (docs/security.md#values-that-become-keys).
 */
const filter = (max: number) => z.optional(keyText(max));

/** The log's filters, shared with its CSV export (functions/admin/routes/exports.ts). */
export const auditFilters = {
  actor: filter(254),
  entity_type: filter(64),
  entity_id: filter(254),
  action: filter(128),
  date_from: text,
  date_to: text,
};

/** `GET /api/admin/audit-logs?page&page_size&cursor&actor&entity_type&entity_id&action&date_from&date_to` */
export const auditLogRoute = defineRoute({
  query: z.object({ page: text, page_size: text, cursor: text, ...auditFilters }),
  handler: async (req) => ({ body: await auditLog(req.query) }),
});
