import { drainDeferredNotices } from '../accounts/deferred-notices';
import { capacityMeter } from '../lib/db';
import { logger } from '../lib/logger';
import { enqueueAll } from '../lib/queue';
import { partitionsWithLearners, reminderMessages } from '../program/reminders';
import { currentDate } from '../lib/clock';

/**
 * Scheduled reminders Lambda (EventBridge, hourly): fans the hour's reminder work (the learners
 * whose local morning is this UTC hour) out as one queue message per index slice of the hour's
 * partitions that hold learners (functions/program/reminders.ts); the reminder workers
 * (functions/jobs/reminder-worker.ts) send. Then it sends the security notices that had to wait
 * (functions/accounts/deferred-notices.ts). Returns and logs how many slices it queued and what
 * became of the waiting notices.
 */
export const handler = async () => {
  capacityMeter.reset();
  const now = currentDate();
  const messages = reminderMessages(now, now.getUTCHours(), await partitionsWithLearners(now));
  await enqueueAll('reminders', messages);
  logger.info('reminders scheduled', {
    slices: messages.length,
    day: messages[0]?.day,
    hour: now.getUTCHours(),
    consumed_capacity: capacityMeter.snapshot(),
  });
  const notices = await drainDeferredNotices();
  return { slices: messages.length, notices };
};
