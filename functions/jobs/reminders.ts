import { drainDeferredNotices } from '../accounts/deferred-notices';
import { capacityMeter } from '../lib/db';
import { logger } from '../lib/logger';
import { enqueueAll } from '../lib/queue';
import { partitionsWithLearners, reminderMessages } from '../program/reminders';
import { currentDate } from '../lib/clock';
import { hourName, reminderRunHour } from './reminder-run-hour';

/**
 * Scheduled reminders Lambda (EventBridge, hourly): fans the hour's reminder work (the learners
 * whose local morning is this UTC hour) out as one queue message per index slice of the hour's
 * partitions that hold learners (functions/program/reminders.ts); the reminder workers
 * (functions/jobs/reminder-worker.ts) send. Then it sends the security notices that had to wait
 * (functions/accounts/deferred-notices.ts). The hour is the schedule event's, the one an operator
 * names (`{"hour": "2026-03-26T07"}`, docs/runbook.md#reminders-failing), or the current one
 * (`{}`); an event it cannot read is refused with its code, nothing queued. Returns and logs
 * the hour it served, how many slices it queued and what became of the waiting notices.
 */
export const handler = async (event?: unknown) => {
  const run = reminderRunHour(event, currentDate());
  if (!run.ok) {
    logger.warn('reminders run refused', { error: run.error, reason: run.message });
    return { error: run.error, message: run.message };
  }
  capacityMeter.reset();
  const { now } = run;
  const messages = reminderMessages(now, now.getUTCHours(), await partitionsWithLearners(now));
  await enqueueAll('reminders', messages);
  logger.info('reminders scheduled', {
    slices: messages.length,
    day: messages[0]?.day,
    hour: now.getUTCHours(),
    run_hour: hourName(now),
    consumed_capacity: capacityMeter.snapshot(),
  });
  const notices = await drainDeferredNotices();
  return { hour: hourName(now), slices: messages.length, notices };
};
