import { badRequest } from '../lib/errors';
import { funnelField } from '../lib/funnel';
import { readStatsWithFunnel } from '../lib/stats';
import { indexPartition } from '../lib/table';
import { publishedProgram } from '../program/published-program';
import { enrollmentListUsers } from './enrollment-list';
import { STATUS_SCOPES, type StatusScope, type UserListQuery, type UserListResponse } from './user-list-rows';

/**
 * `GET /api/admin/users?stalled_at=<module id>`: the learners the dashboard's funnel counts as in
 * progress at that module (functions/lib/funnel.ts stalledAtEntry), one Query page of the
 * stalledAt index partition, then their accounts. Without a status every account is listed, as
 * the funnel counts it (a soft-deleted learner until the erasure), and the total is the funnel's
 * own counter; with a status the accounts are filtered and the total is a lower bound. An id the
 * published program does not have is 400 `unknown_module`.
 */
export async function stalledUsers(moduleId: string, raw: UserListQuery, page: number, size: number): Promise<UserListResponse> {
  if (!(await publishedProgram()).modules.some((module) => module.module_id === moduleId)) throw badRequest('unknown_module');
  const status = (raw.status ?? '').trim();
  const scope: StatusScope | 'every' = status && (STATUS_SCOPES as readonly string[]).includes(status) ? (status as StatusScope) : 'every';
  const list = JSON.stringify(['users-stalled', moduleId, scope]);
  const stream = { index: 'stalledAt', partition: indexPartition.stalledAt(moduleId) } as const;
  return enrollmentListUsers(list, stream, scope, raw, page, size, async () =>
    scope === 'every' ? Math.max(0, (await readStatsWithFunnel()).funnel.get(funnelField.inProgress(moduleId)) ?? 0) : undefined,
  );
}
