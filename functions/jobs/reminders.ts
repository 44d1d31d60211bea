import { capacityMeter } from '../lib/db';
import { logger } from '../lib/logger';
import { enqueueAll } from '../lib/queue';
import { reminderMessages } from '../program/reminders';
import { currentDate } from '../lib/clock';

/**
 * Scheduled reminders Lambda (EventBridge, hourly): fans the hour's reminder work (the learners
 * whose local morning is this UTC hour) out as one queue message per index slice
 * (functions/program/reminders.ts); the reminder workers (functions/jobs/reminder-worker.ts)
 * send. Returns and logs how many slices it queued.
 */
export const handler = async () => {
  capacityMeter.reset();
  const messages = reminderMessages(currentDate());
  await enqueueAll('reminders', messages);
  logger.info('reminders scheduled', { slices: messages.length, day: messages[0]?.day, hour: messages[0]?.hour });
  return { slices: messages.length };
};
