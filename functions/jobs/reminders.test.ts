import { afterEach, describe, expect, it, vi } from 'vitest';
import { METRIC, metrics } from '../lib/metrics';

vi.mock('../program/reminders', () => ({
  runReminders: vi.fn(async () => ({ considered: 7, sent: 4, skipped: 1, failed: 2 })),
}));

const { handler } = await import('./reminders');
const { runReminders } = await import('../program/reminders');

afterEach(() => vi.restoreAllMocks());

describe('reminders job handler', () => {
  it('counts sent and failed reminders and flushes the metrics of the run', async () => {
    const addMetric = vi.spyOn(metrics, 'addMetric');
    const publish = vi.spyOn(metrics, 'publishStoredMetrics');
    expect(await handler()).toEqual({ considered: 7, sent: 4, skipped: 1, failed: 2 });
    expect(addMetric.mock.calls).toEqual([
      [METRIC.remindersSent, 'Count', 4],
      [METRIC.remindersFailed, 'Count', 2],
    ]);
    expect(publish).toHaveBeenCalledTimes(1);
  });

  it('flushes what was counted even when the run crashes', async () => {
    vi.mocked(runReminders).mockRejectedValueOnce(new Error('table gone'));
    const publish = vi.spyOn(metrics, 'publishStoredMetrics');
    await expect(handler()).rejects.toThrow('table gone');
    expect(publish).toHaveBeenCalledTimes(1);
  });
});
