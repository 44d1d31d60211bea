import type { Context } from 'aws-lambda';
import { reconcileCounters } from '../admin/counter-reconcile';
import { capacityMeter } from '../lib/db';
import { logger } from '../lib/logger';
import { count, gauge, METRIC, metrics } from '../lib/metrics';

/**
 * Scheduled reconciliation of the admin counters (EventBridge, daily; functions/admin/counter-reconcile.ts):
 * publishes the drift it saw (`CounterDrift`, whose alarm fires when two days in a row saw one)
 * and the values it corrected (`CounterCorrections`). Out of time it checkpoints and fails, so
 * that Lambda's retry of the invocation resumes the walk where it stopped.
 */
export const handler = async (_event: unknown, context: Context) => {
  capacityMeter.reset();
  const result = await reconcileCounters({ timeLeftMs: () => context.getRemainingTimeInMillis() });
  const summary = { finished: result.finished, day: result.day, accounts: result.accounts, total_drift: result.totalDrift };
  logger.info('counter reconciliation run', { ...summary, consumed_capacity: capacityMeter.snapshot() });
  if (!result.finished)
    throw new Error(`counter reconciliation out of time after ${result.accounts} accounts: checkpointed, the retry resumes it`);
  if (result.totalDrift)
    logger.warn('counter drift', { day: result.day, total_drift: result.totalDrift, drift: result.drift, corrected: result.corrected });
  gauge(METRIC.counterDrift, result.totalDrift);
  count(METRIC.counterCorrections, Object.keys(result.corrected).length);
  metrics.publishStoredMetrics();
  return summary;
};
