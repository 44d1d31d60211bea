import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { backoffDelay, sleep as defaultSleep } from './backoff';

/**
 * One retry policy for write conflicts and throttling (docs/scale-writes.md).
 *
 * A burst of learners (the login wave after a reminder mail) makes transactions touch the same
 * counter shard at once; DynamoDB then cancels some with `TransactionConflict` or throttles them.
 * Those are retried here with exponential backoff and full jitter, so the retries of a burst
 * spread out instead of colliding again. When the attempts run out the last error is rethrown:
 * the one error mapper (functions/lib/http.ts) answers 503 `unavailable` with `Retry-After`.
 * Domain refusals (ConditionalCheckFailed) are never retried here: the caller decides.
 */

/** AWS errors that mean "too much traffic right now" (DynamoDB, SES, Secrets Manager, SSM). */
export const THROTTLING_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'Throttling',
  'RequestLimitExceeded',
  'TooManyRequestsException',
]);

/** Write contention: another transaction holds one of the items right now. */
const CONFLICT_ERRORS = new Set(['TransactionConflictException', 'TransactionInProgressException']);

/** Cancellation reasons of a transaction that a retry can cure. */
const TRANSIENT_REASONS = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);

/**
 * True for throttling, a write conflict, or a transaction cancelled only because of those
 * (no item refused its condition).
 */
export function isTransientAwsError(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name ?? '';
  if (THROTTLING_ERRORS.has(name) || CONFLICT_ERRORS.has(name)) return true;
  if (!(error instanceof TransactionCanceledException) && name !== 'TransactionCanceledException') return false;
  const codes = ((error as TransactionCanceledException).CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
  return codes.some((code) => TRANSIENT_REASONS.has(code)) && codes.every((code) => code === 'None' || TRANSIENT_REASONS.has(code));
}

export interface RetryOptions {
  /** Tries in all (the first one included). */
  attempts?: number;
  /** Backoff base in ms: the n-th retry waits a random time in [0, min(cap, base·2^n)). */
  baseMs?: number;
  capMs?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/** Process-wide tallies (logs, the burst test): retries made, and operations that ran out of tries. */
export const retryCounters = { retries: 0, exhausted: 0 };

/**
 * Runs `operation` and retries it while it fails with a transient error. `operation` gets the
 * 0-based attempt number (re-read state there if the write depends on it).
 */
export async function withWriteRetries<T>(operation: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { attempts = 8, baseMs = 25, capMs = 1_000, sleep = defaultSleep, random = Math.random } = options;
  for (let attempt = 0; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (error) {
      if (!isTransientAwsError(error)) throw error;
      if (attempt + 1 >= attempts) {
        retryCounters.exhausted += 1;
        throw error;
      }
      retryCounters.retries += 1;
      await sleep(backoffDelay(attempt, baseMs, capMs, random));
    }
  }
}

/** The ConditionalCheckFailed reasons of a cancelled transaction (by index of its items). */
export function failedConditions(error: unknown): number[] {
  if (!(error instanceof TransactionCanceledException)) return [];
  return (error.CancellationReasons ?? []).flatMap((reason, index) => (reason.Code === 'ConditionalCheckFailed' ? [index] : []));
}
