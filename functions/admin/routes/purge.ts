import { accountPath } from '../../../shared/key-values';
import { defineRoute } from '../../lib/http';
import { purgeStatus } from '../purge-job';

/** `GET /api/admin/users/{id}/hard-delete/status` → `{ status: purging | done, step, counts, started_at, finished_at }` */
export const purgeStatusRoute = defineRoute({
  params: accountPath,
  handler: async (req) => ({ body: await purgeStatus(req.params.id) }),
});
