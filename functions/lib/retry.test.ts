import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff';
import { failedConditions, isTransientAwsError, withWriteRetries } from './retry';

const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });
const named = (name: string) => Object.assign(new Error(name), { name });

describe('isTransientAwsError', () => {
  it('is true for throttling, write conflicts and transactions cancelled only by them', () => {
    expect(isTransientAwsError(named('ThrottlingException'))).toBe(true);
    expect(isTransientAwsError(named('ProvisionedThroughputExceededException'))).toBe(true);
    expect(isTransientAwsError(named('TransactionConflictException'))).toBe(true);
    expect(isTransientAwsError(cancelled('None', 'TransactionConflict', 'None'))).toBe(true);
    expect(isTransientAwsError(cancelled('ThrottlingError'))).toBe(true);
  });

  it('is false when a condition refused the write, and for other errors', () => {
    expect(isTransientAwsError(cancelled('ConditionalCheckFailed', 'TransactionConflict'))).toBe(false);
    expect(isTransientAwsError(cancelled('ValidationError'))).toBe(false);
    expect(isTransientAwsError(cancelled('None'))).toBe(false);
    expect(isTransientAwsError(new Error('boom'))).toBe(false);
    expect(isTransientAwsError(null)).toBe(false);
  });
});

describe('withWriteRetries', () => {
  it('retries transient failures with full-jitter backoff, then succeeds', async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await withWriteRetries(
      (attempt) => {
        calls += 1;
        return attempt < 3 ? Promise.reject(cancelled('TransactionConflict')) : Promise.resolve('done');
      },
      {
        sleep: (ms) => {
          waits.push(ms);
          return Promise.resolve();
        },
        random: () => 0.5,
        baseMs: 10,
        capMs: 1000,
      },
    );
    expect(result).toBe('done');
    expect(calls).toBe(4);
    expect(waits).toEqual([5, 10, 20]);
  });

  it('rethrows the last transient error when the attempts run out', async () => {
    let calls = 0;
    const error = cancelled('TransactionConflict');
    await expect(
      withWriteRetries(
        () => {
          calls += 1;
          return Promise.reject(error);
        },
        { attempts: 4, sleep: () => Promise.resolve() },
      ),
    ).rejects.toBe(error);
    expect(calls).toBe(4);
  });

  it('does not retry a refused condition', async () => {
    let calls = 0;
    await expect(
      withWriteRetries(() => {
        calls += 1;
        return Promise.reject(cancelled('ConditionalCheckFailed'));
      }),
    ).rejects.toBeInstanceOf(TransactionCanceledException);
    expect(calls).toBe(1);
  });

  it('caps the backoff and spreads it over [0, cap)', () => {
    expect(backoffDelay(20, 25, 1000, () => 0.999)).toBe(999);
    expect(backoffDelay(0, 25, 1000, () => 0)).toBe(0);
  });

  it('lists the items whose condition failed', () => {
    expect(failedConditions(cancelled('None', 'ConditionalCheckFailed'))).toEqual([1]);
    expect(failedConditions(new Error('x'))).toEqual([]);
  });
});
