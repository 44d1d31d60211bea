import type { Context, SQSEvent } from 'aws-lambda';
import { beforeEach, describe, expect, it, vi } from 'vitest';

/** The SQS workers: continuation when out of time, redelivery (batch item failure) on errors. */
const mocks = vi.hoisted(() => ({
  processReminderSlice: vi.fn<typeof import('../program/reminders').processReminderSlice>(),
  continuePurge: vi.fn(),
  enqueue: vi.fn(),
}));
vi.mock('../program/reminders', () => ({ processReminderSlice: mocks.processReminderSlice }));
vi.mock('../admin/hard-delete', () => ({ continuePurge: mocks.continuePurge }));
vi.mock('../lib/queue', () => ({ enqueue: mocks.enqueue }));

const { handler: reminderWorker } = await import('./reminder-worker');
const { handler: purgeWorker } = await import('./purge');

const context = { getRemainingTimeInMillis: () => 600_000 } as unknown as Context;
const event = (...bodies: unknown[]) =>
  ({ Records: bodies.map((body, index) => ({ messageId: `m-${index}`, body: JSON.stringify(body) })) }) as unknown as SQSEvent;
const slice = { day: '2030-03-05', now: '2030-03-05T14:00:00.000Z', partition: 'REMIND#daily#3', prefix: 'a' };

beforeEach(() => {
  vi.clearAllMocks();
  mocks.enqueue.mockResolvedValue(undefined);
});

describe('reminder worker', () => {
  it('queues its own continuation when the slice is not finished', async () => {
    mocks.processReminderSlice.mockResolvedValueOnce({ considered: 100, sent: 100, skipped: 0, failed: 0, finished: false });
    expect(await reminderWorker(event(slice), context)).toEqual({ batchItemFailures: [] });
    expect(mocks.enqueue).toHaveBeenCalledWith('reminders', slice, 0);
    // the worker hands its remaining time to the slice so it stops claiming learners in time
    expect(mocks.processReminderSlice.mock.calls[0][1]?.timeLeftMs?.()).toBe(600_000);
  });

  it('queues the later run that retries failed sends with the delay the slice asks for', async () => {
    mocks.processReminderSlice.mockResolvedValueOnce({
      considered: 5,
      sent: 4,
      skipped: 0,
      failed: 1,
      finished: false,
      continueInSeconds: 900,
    });
    expect(await reminderWorker(event(slice), context)).toEqual({ batchItemFailures: [] });
    expect(mocks.enqueue).toHaveBeenCalledWith('reminders', slice, 900);
  });

  it('queues nothing for a finished slice and reports a failed one for redelivery', async () => {
    mocks.processReminderSlice
      .mockResolvedValueOnce({ considered: 3, sent: 3, skipped: 0, failed: 0, finished: true })
      .mockRejectedValueOnce(new Error('boom'));
    expect(await reminderWorker(event(slice, slice), context)).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(mocks.enqueue).not.toHaveBeenCalled();
  });
});

describe('purge worker', () => {
  it('continues the purge and queues the rest while it is not done', async () => {
    mocks.continuePurge.mockResolvedValueOnce({ status: 'purging', step: 'audit', counts: {} });
    expect(await purgeWorker(event({ user_id: 'u-1' }), context)).toEqual({ batchItemFailures: [] });
    expect(mocks.continuePurge).toHaveBeenCalledWith('u-1', expect.objectContaining({ timeLeftMs: expect.any(Function) as () => number }));
    expect(mocks.enqueue).toHaveBeenCalledWith('purge', { user_id: 'u-1' });
  });

  it('stops when done, drops a purge with nothing left, and reports errors for redelivery', async () => {
    mocks.continuePurge
      .mockResolvedValueOnce({ status: 'done', step: 'finish', counts: {} })
      .mockRejectedValueOnce(Object.assign(new Error('not_found'), { code: 'not_found' }))
      .mockRejectedValueOnce(new Error('throttled for good'));
    const result = await purgeWorker(event({ user_id: 'a' }, { user_id: 'b' }, { user_id: 'c' }), context);
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-2' }] });
    expect(mocks.enqueue).not.toHaveBeenCalled();
  });
});
