import * as z from 'zod/mini';
import { defineRoute } from '../../lib/http';
import { auditLog } from '../audit-log';

const text = z.optional(z.string());

/** `GET /api/admin/audit-logs?page&page_size&cursor&actor&entity_type&entity_id&action&date_from&date_to` */
export const auditLogRoute = defineRoute({
  query: z.object({ page: text, page_size: text, cursor: text, actor: text, entity_type: text, entity_id: text, action: text, date_from: text, date_to: text }),
  handler: async (req) => ({ body: await auditLog(req.query) }),
});
