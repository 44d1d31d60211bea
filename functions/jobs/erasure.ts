import type { Context } from 'aws-lambda';
import { runErasure } from '../admin/erasure';
import { erasureBacklogDays } from '../admin/erasure-backlog';
import { capacityMeter } from '../lib/db';
import { logger } from '../lib/logger';
import { count, gauge, METRIC, metrics } from '../lib/metrics';

/**
 * Scheduled erasure Lambda (EventBridge, daily): queues the hard delete of every account whose
 * soft-delete is older than the retention period to the purge workers (functions/admin/erasure.ts).
 * Out of time it stops after a page, checkpointed; the next run (a retry or tomorrow's) resumes,
 * and what is left stays due.
 */
export const handler = async (_event: unknown, context: Context) => {
  capacityMeter.reset();
  const result = await runErasure({ timeLeftMs: () => context.getRemainingTimeInMillis() });
  logger.info('erasure run', { ...result, consumed_capacity: capacityMeter.snapshot() });
  count(METRIC.erasuresFailed, result.failed);
  gauge(METRIC.erasureBacklogDays, await erasureBacklogDays());
  metrics.publishStoredMetrics();
  if (result.failed) throw new Error(`erasure: ${result.failed} account(s) failed; each is logged as "erasure failed"`);
  return result;
};
