import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { continuePurge, type PurgeMessage } from '../admin/hard-delete';
import { capacityMeter } from '../lib/db';
import { logger } from '../lib/logger';
import { count, METRIC, metrics } from '../lib/metrics';
import { enqueue } from '../lib/queue';

/**
 * Purge worker (SQS): continues hard deletes that did not finish inside the request
 * (functions/admin/hard-delete.ts). Every step is idempotent, so a redelivered or duplicate
 * message only repeats work already done. Near its timeout it checkpoints and enqueues the
 * rest; a failure reports the message for redelivery (after maxReceiveCount: the DLQ).
 */
const MARGIN_MS = 10_000;

export async function runPurgeMessage(message: PurgeMessage, timeLeftMs: () => number = () => Number.POSITIVE_INFINITY): Promise<void> {
  const job = await continuePurge(message.user_id, { timeLeftMs });
  logger.info('purge step run', { user_id: message.user_id, status: job.status, step: job.step, counts: job.counts });
  if (job.status !== 'done') await enqueue('purge', message);
}

export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  capacityMeter.reset();
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      await runPurgeMessage(JSON.parse(record.body) as PurgeMessage, () => context.getRemainingTimeInMillis() - MARGIN_MS);
    } catch (error) {
      // a purge whose account and job are both gone has nothing left to do
      if ((error as { code?: string }).code === 'not_found') continue;
      logger.error('purge step failed', { error: error as Error });
      count(METRIC.purgeStepsFailed);
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  logger.info('purge job', { consumed_capacity: capacityMeter.snapshot() });
  metrics.publishStoredMetrics();
  return { batchItemFailures: failures };
};
