import { StandardRetryStrategy } from '@smithy/util-retry';

/**
 * SES's 24-hour sending quota is spent. SES v2 answers `LimitExceededException` (HTTP 400)
 * "Daily message quota exceeded."; SES v1 answered `Throttling` with the same message.
 */
export function isDailyQuotaExceeded(error: unknown): boolean {
  const e = error as { name?: unknown; message?: unknown } | null;
  if (!e) return false;
  return e.name === 'LimitExceededException' || (typeof e.message === 'string' && /daily message quota exceeded/i.test(e.message));
}

/**
 * Attempts per send. Account mail is sent while a learner waits on an API function with a 10 s
 * timeout: two retries back off at most 1 s + 2 s (the SDK's throttling backoff, full jitter),
 * so a throttled send still ends in a clean 503 well before the function would time out.
 */
export const SES_MAX_ATTEMPTS = 3;

type RefreshArgs = Parameters<StandardRetryStrategy['refreshRetryTokenForRetry']>;

/**
 * The SDK's standard retries (`Maximum sending rate exceeded.` clears within a second), except
 * for a spent daily quota: the SDK counts `LimitExceededException` as throttling and would wait
 * and ask again, though the answer cannot change until earlier sends leave the 24-hour window.
 */
export class SesRetryStrategy extends StandardRetryStrategy {
  constructor(maxAttempts = SES_MAX_ATTEMPTS) {
    super(maxAttempts);
  }

  override async refreshRetryTokenForRetry(
    ...[token, errorInfo]: RefreshArgs
  ): ReturnType<StandardRetryStrategy['refreshRetryTokenForRetry']> {
    // Refusing the token makes the SDK give up and throw SES's own error to the caller.
    if (isDailyQuotaExceeded(errorInfo.error)) throw new Error('SES daily quota exceeded: not retried');
    return super.refreshRetryTokenForRetry(token, errorInfo);
  }
}
