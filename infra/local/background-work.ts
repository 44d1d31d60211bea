import type { PurgeMessage } from '../../functions/admin/purge-job';
import type { ReminderSliceMessage } from '../../functions/program/reminders';
import type { Consumer, QueueName } from '../../functions/lib/queue';
import { runAs } from './iam/twin';

/**
 * The local stand-in for the SQS workers (docs/scale-writes.md): the same worker functions,
 * registered as in-process consumers of functions/lib/queue.ts, each running as its own Lambda
 * function's IAM role (infra/local/iam/twin.ts). A hard delete that outgrows its request
 * continues here exactly as the purge worker Lambda would continue it in the cloud, and reminder
 * slices (were they queued) run through the same slice worker.
 */
export async function registerLocalWorkers(): Promise<void> {
  const { registerLocalConsumer } = await import('../../functions/lib/queue');
  for (const [name, consumer] of Object.entries(await localWorkers())) registerLocalConsumer(name as QueueName, consumer);
}

/** The in-process consumer of each queue (a harness may wrap them: test/soak delivers some messages twice, as SQS may). */
export async function localWorkers(): Promise<Record<QueueName, Consumer>> {
  const [{ enqueue }, { runPurgeMessage }, { processReminderSlice }] = await Promise.all([
    import('../../functions/lib/queue'),
    import('../../functions/jobs/purge'),
    import('../../functions/program/reminders'),
  ]);
  return {
    purge: (message) => runAs('purge', () => runPurgeMessage(message as PurgeMessage, () => 60_000)),
    reminders: (message) =>
      runAs('reminderWorker', async () => {
        const slice = message as ReminderSliceMessage;
        const result = await processReminderSlice(slice);
        if (!result.finished) await enqueue('reminders', slice, result.continueInSeconds ?? 0);
      }),
  };
}
