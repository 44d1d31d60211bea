import { capacityMeter } from '../lib/db';
import { logger } from '../lib/logger';
import { count, METRIC, metrics } from '../lib/metrics';
import { runReminders } from '../program/reminders';

/**
 * Scheduled reminders Lambda (EventBridge, daily): emails learners who have modules left,
 * daily or weekly by their preference (functions/program/reminders.ts). Returns and logs
 * { considered, sent, skipped, failed } with the DynamoDB capacity the run consumed.
 */
export const handler = async () => {
  capacityMeter.reset();
  try {
    const summary = await runReminders({ now: new Date() });
    logger.info('reminders job', { ...summary, consumed_capacity: capacityMeter.snapshot() });
    count(METRIC.remindersSent, summary.sent);
    count(METRIC.remindersFailed, summary.failed);
    return summary;
  } finally {
    metrics.publishStoredMetrics(); // also the emails' own counters (functions/lib/metrics.ts)
  }
};
