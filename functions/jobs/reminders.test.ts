import type { Context, SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { METRIC, metrics } from '../lib/metrics';

/** The reminder worker's business metrics: sent and failed reminders, flushed once per batch. */
const mocks = vi.hoisted(() => ({ processReminderSlice: vi.fn(), enqueue: vi.fn(() => Promise.resolve(undefined)) }));
vi.mock('../program/reminders', () => ({ processReminderSlice: mocks.processReminderSlice }));
vi.mock('../lib/queue', () => ({ enqueue: mocks.enqueue }));

const { handler } = await import('./reminder-worker');
const context = { getRemainingTimeInMillis: () => 600_000 } as unknown as Context;
const slice = { day: '2030-03-05', now: '2030-03-05T14:00:00.000Z', hour: 14, partition: 'REMIND#daily#14#3', prefix: 'a' };
const event = (count: number) =>
  ({
    Records: Array.from({ length: count }, (_, index) => ({ messageId: `m-${index}`, body: JSON.stringify(slice) })),
  }) as unknown as SQSEvent;

afterEach(() => vi.restoreAllMocks());

describe('reminder worker metrics', () => {
  it('counts sent and failed reminders of each slice and flushes the metrics of the batch', async () => {
    mocks.processReminderSlice.mockResolvedValueOnce({ considered: 7, sent: 4, skipped: 1, failed: 2, finished: true });
    const addMetric = vi.spyOn(metrics, 'addMetric');
    const publish = vi.spyOn(metrics, 'publishStoredMetrics');
    expect(await handler(event(1), context)).toEqual({ batchItemFailures: [] });
    expect(addMetric.mock.calls).toEqual([
      [METRIC.remindersSent, 'Count', 4],
      [METRIC.remindersFailed, 'Count', 2],
    ]);
    expect(publish).toHaveBeenCalledTimes(1);
  });

  it('flushes what was counted even when a slice crashes (the slice is redelivered)', async () => {
    mocks.processReminderSlice
      .mockResolvedValueOnce({ considered: 1, sent: 1, skipped: 0, failed: 0, finished: true })
      .mockRejectedValueOnce(new Error('table gone'));
    const publish = vi.spyOn(metrics, 'publishStoredMetrics');
    expect(await handler(event(2), context)).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(publish).toHaveBeenCalledTimes(1);
  });
});
