import type { PurgeMessage } from '../../functions/admin/purge-job';
import type { ReminderSliceMessage } from '../../functions/program/reminders';
import { runAs } from './iam/twin';

/**
 * The local stand-in for the SQS workers (docs/scale-writes.md): the same worker functions,
 * registered as in-process consumers of functions/lib/queue.ts, each running as its own Lambda
 * function's IAM role (infra/local/iam/twin.ts). A hard delete that outgrows its request
 * continues here exactly as the purge worker Lambda would continue it in the cloud, and reminder
 * slices (were they queued) run through the same slice worker.
 */
export async function registerLocalWorkers(): Promise<void> {
  const [{ registerLocalConsumer, enqueue }, { runPurgeMessage }, { processReminderSlice }] = await Promise.all([
    import('../../functions/lib/queue'),
    import('../../functions/jobs/purge'),
    import('../../functions/program/reminders'),
  ]);
  registerLocalConsumer('purge', (message: PurgeMessage) => runAs('purge', () => runPurgeMessage(message, () => 60_000)));
  registerLocalConsumer('reminders', (message: ReminderSliceMessage) =>
    runAs('reminderWorker', async () => {
      const result = await processReminderSlice(message);
      if (!result.finished) await enqueue('reminders', message, result.continueInSeconds ?? 0);
    }),
  );
}
