import type { Context, SQSEvent } from 'aws-lambda';
import { beforeEach, describe, expect, it, vi } from 'vitest';

/** The SQS workers: continuation when out of time, redelivery (batch item failure) on errors. */
const mocks = vi.hoisted(() => ({
  processReminderSlice: vi.fn<typeof import('../program/reminders').processReminderSlice>(),
  continuePurge: vi.fn(),
  enqueue: vi.fn(),
  runErasure: vi.fn(),
  erasureBacklogDays: vi.fn(),
}));
vi.mock('../program/reminders', () => ({ processReminderSlice: mocks.processReminderSlice }));
vi.mock('../admin/purge-job', () => ({ continuePurge: mocks.continuePurge }));
vi.mock('../lib/queue', () => ({ enqueue: mocks.enqueue }));
vi.mock('../admin/erasure', () => ({ runErasure: mocks.runErasure }));
vi.mock('../admin/erasure-backlog', () => ({ erasureBacklogDays: mocks.erasureBacklogDays }));

const { handler: reminderWorker } = await import('./reminder-worker');
const { handler: purgeWorker } = await import('./purge');
const { handler: erasureJob } = await import('./erasure');
const { metrics } = await import('../lib/metrics');

/** The EMF metrics a handler recorded (name → values), flushed by the handler itself. */
function recordedMetrics() {
  const add = vi.spyOn(metrics, 'addMetric');
  const publish = vi.spyOn(metrics, 'publishStoredMetrics').mockImplementation(() => metrics);
  return {
    values: (name: string) => add.mock.calls.filter(([metric]) => metric === name).map(([, , value]) => value),
    published: () => publish.mock.calls.length > 0,
  };
}

const context = { getRemainingTimeInMillis: () => 600_000 } as unknown as Context;
const event = (...bodies: unknown[]) =>
  ({ Records: bodies.map((body, index) => ({ messageId: `m-${index}`, body: JSON.stringify(body) })) }) as unknown as SQSEvent;
const slice = { day: '2030-03-05', now: '2030-03-05T14:00:00.000Z', hour: 14, partition: 'REMIND#daily#14#3', prefix: 'a' };

beforeEach(() => {
  vi.restoreAllMocks();
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

  it('counts each failed step in PurgeStepsFailed and publishes it (a failure is no Lambda error)', async () => {
    const recorded = recordedMetrics();
    mocks.continuePurge.mockRejectedValueOnce(new Error('throttled for good')).mockRejectedValueOnce(new Error('again'));
    await purgeWorker(event({ user_id: 'a' }, { user_id: 'b' }), context);
    expect(recorded.values('PurgeStepsFailed')).toEqual([1, 1]);
    expect(recorded.published()).toBe(true);
  });
});

describe('erasure job', () => {
  const summary = { considered: 3, queued: 1, skipped: 0, finished: true };

  it('publishes its failed accounts and the backlog gauge, then fails the run', async () => {
    const recorded = recordedMetrics();
    mocks.runErasure.mockResolvedValueOnce({ ...summary, failed: 2 });
    mocks.erasureBacklogDays.mockResolvedValueOnce(33);
    await expect(erasureJob({}, context)).rejects.toThrow(/2 account\(s\) failed/);
    expect(recorded.values('ErasuresFailed')).toEqual([2]);
    expect(recorded.values('ErasureBacklogDays')).toEqual([33]);
    expect(recorded.published()).toBe(true);
  });

  it('publishes the backlog gauge on a clean run too, even when nothing waits', async () => {
    const recorded = recordedMetrics();
    mocks.runErasure.mockResolvedValueOnce({ ...summary, failed: 0 });
    mocks.erasureBacklogDays.mockResolvedValueOnce(0);
    await expect(erasureJob({}, context)).resolves.toMatchObject({ failed: 0 });
    expect(recorded.values('ErasuresFailed')).toEqual([]);
    expect(recorded.values('ErasureBacklogDays')).toEqual([0]);
  });
});
