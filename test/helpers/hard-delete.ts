import { continuePurge, type purgeStatus } from '../../functions/admin/purge-job';
import { runAs } from '../../infra/local/iam/twin';
import type { ApiClient } from './api';

type PurgeStatus = Awaited<ReturnType<typeof purgeStatus>>;

/**
 * An admin's hard delete of a soft-deleted account, run to its end. The request purges inline
 * for its time budget and answers 202 when the purge goes on in the purge worker; on a busy
 * machine even a small account may not fit that budget, so a test must not depend on the 200.
 * After a 202 the worker's turns (as its Lambda role) finish the purge. Answers the request's
 * status and the finished job's counts.
 */
export async function hardDeleteToEnd(
  admin: ApiClient,
  user: { id: string; email: string },
): Promise<{ status: number; counts: Record<string, number> }> {
  const reply = await admin.delete<{ counts: Record<string, number> }>(
    `/api/admin/users/${user.id}?confirm_email=${encodeURIComponent(user.email)}`,
  );
  if (reply.status !== 202) return { status: reply.status, counts: reply.body.counts };
  for (;;) {
    await runAs('purge', () => continuePurge(user.id));
    const status = (await admin.get<PurgeStatus>(`/api/admin/users/${user.id}/hard-delete/status`)).body;
    if (status.status === 'done') return { status: reply.status, counts: status.counts };
  }
}
