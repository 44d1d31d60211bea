import { continuePurge, type PurgeMessage, type purgeStatus } from '../../functions/admin/purge-job';
import { runPurgeMessage } from '../../functions/jobs/purge';
import { drainLocalQueues, registerLocalConsumer } from '../../functions/lib/queue';
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

/**
 * Holds the purge queue's messages instead of running them (the local queue's consumer), so a
 * test sees what a job queued before any purge step ran. `queued()` answers the messages so far
 * (once every in-process send has landed); `finish()` runs each through the purge worker, as its
 * Lambda role, until the queue is empty (a worker out of time queues its own continuation).
 */
export function holdPurgeMessages(): { queued(): Promise<PurgeMessage[]>; finish(): Promise<void> } {
  const messages: PurgeMessage[] = [];
  registerLocalConsumer('purge', (message: PurgeMessage) => {
    messages.push(message);
    return Promise.resolve();
  });
  const queued = async () => {
    await drainLocalQueues();
    return [...messages];
  };
  return {
    queued,
    async finish() {
      while ((await queued()).length) await runAs('purge', () => runPurgeMessage(messages.shift()!));
    },
  };
}
