import { afterEach, describe, expect, it, vi } from 'vitest';
import { isDailyQuotaExceeded, SES_MAX_ATTEMPTS, SesRetryStrategy } from './ses-retry';

/** SES v2's answers as the SDK throws them (an `SdkError`: the error name, the HTTP status). */
const sesError = (name: string, message: string, httpStatusCode: number) =>
  Object.assign(new Error(message), { name, $metadata: { httpStatusCode }, cause: undefined });
const rateExceeded = () => sesError('TooManyRequestsException', 'Maximum sending rate exceeded.', 429);
const quotaExceeded = () => sesError('LimitExceededException', 'Daily message quota exceeded.', 400);

afterEach(() => {
  vi.useRealTimers();
});

describe('isDailyQuotaExceeded', () => {
  it("recognises SES v2's LimitExceededException and SES v1's Throttling with the quota message", () => {
    expect(isDailyQuotaExceeded(quotaExceeded())).toBe(true);
    expect(isDailyQuotaExceeded(Object.assign(new Error('Daily message quota exceeded.'), { name: 'Throttling' }))).toBe(true);
    expect(isDailyQuotaExceeded(rateExceeded())).toBe(false);
    expect(isDailyQuotaExceeded(sesError('MessageRejected', 'Email address is not verified.', 400))).toBe(false);
    expect(isDailyQuotaExceeded(null)).toBe(false);
  });
});

describe('SesRetryStrategy', () => {
  it('retries the send rate (throttling) up to its attempts, with a backoff', async () => {
    vi.useFakeTimers();
    const strategy = new SesRetryStrategy();
    let token = await strategy.acquireInitialRetryToken('');
    for (let retry = 1; retry < SES_MAX_ATTEMPTS; retry++) {
      const next = strategy.refreshRetryTokenForRetry(token, { errorType: 'THROTTLING', error: rateExceeded() });
      await vi.runAllTimersAsync();
      token = await next;
      expect(token.getRetryCount()).toBe(retry);
    }
    const exhausted = strategy.refreshRetryTokenForRetry(token, { errorType: 'THROTTLING', error: rateExceeded() });
    await expect(exhausted).rejects.toThrow();
  });

  it('gives up at once on a spent daily quota, though the SDK classes it as throttling', async () => {
    const strategy = new SesRetryStrategy();
    const token = await strategy.acquireInitialRetryToken('');
    await expect(strategy.refreshRetryTokenForRetry(token, { errorType: 'THROTTLING', error: quotaExceeded() })).rejects.toThrow(
      'not retried',
    );
  });
});
