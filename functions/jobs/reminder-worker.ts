import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { capacityMeter } from '../lib/db';
import { logger } from '../lib/logger';
import { count, METRIC, metrics } from '../lib/metrics';
import { enqueue } from '../lib/queue';
import { processReminderSlice, type ReminderSliceMessage } from '../program/reminders';

/**
 * Reminder worker (SQS, batch size 1, bounded concurrency): sends one slice of the day's
 * reminders at its share of the bulk budget, from the slice's checkpoint. Near its timeout it
 * stops claiming learners and queues its own continuation, and a slice with failed sends queues
 * the later run that retries them; a crash makes SQS
 * redeliver the message (after maxReceiveCount: the dead-letter queue). The once-a-day marker
 * keeps a redelivery from mailing anyone twice.
 */
export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    capacityMeter.reset();
    try {
      const message = JSON.parse(record.body) as ReminderSliceMessage;
      const result = await processReminderSlice(message, { timeLeftMs: () => context.getRemainingTimeInMillis() });
      count(METRIC.remindersSent, result.sent);
      count(METRIC.remindersFailed, result.failed);
      if (!result.finished) await enqueue('reminders', message, result.continueInSeconds ?? 0);
      logger.info('reminder slice', {
        partition: message.partition,
        prefix: message.prefix,
        ...result,
        consumed_capacity: capacityMeter.snapshot(),
      });
    } catch (error) {
      logger.error('reminder slice failed', { error: error as Error });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  metrics.publishStoredMetrics(); // also the emails' own counters (functions/lib/metrics.ts)
  return { batchItemFailures: failures };
};
