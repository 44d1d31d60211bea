import { defineRoute } from '../../lib/http';
import { adminSummary } from '../summary';

/** `GET /api/admin/summary` */
export const summary = defineRoute({ handler: async () => ({ body: await adminSummary() }) });
