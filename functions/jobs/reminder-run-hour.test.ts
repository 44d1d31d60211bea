import { describe, expect, it } from 'vitest';
import { MAX_SLICE_AGE_MS } from '../program/reminders';
import { RERUN_MARGIN_MS, reminderRunHour } from './reminder-run-hour';

/** docs/runbook.md#reminders-failing: which hour a run of the reminders job serves, and what it refuses. */
const clock = new Date('2026-03-26T14:25:10.000Z');
const served = (event: unknown) => {
  const run = reminderRunHour(event, clock);
  return run.ok ? run.now.toISOString() : run.error;
};

describe('the hour a reminders run serves', () => {
  it('is the current one for {} or no event, at the clock time as the schedule runs it', () => {
    expect(served({})).toBe(clock.toISOString());
    expect(served(undefined)).toBe(clock.toISOString());
    expect(served(null)).toBe(clock.toISOString());
  });

  it('is the named UTC day and hour, from its start, so a rerun serves the hour that failed', () => {
    expect(served({ hour: '2026-03-26T07' })).toBe('2026-03-26T07:00:00.000Z');
    // the day before, within the slices' age
    expect(served({ hour: '2026-03-26T04' })).toBe('2026-03-26T04:00:00.000Z');
    // the current hour named: the clock's time, as {} does
    expect(served({ hour: '2026-03-26T14' })).toBe(clock.toISOString());
  });

  it("is the schedule event's own hour, so a late delivery or a retry serves the hour it was fired for", () => {
    const scheduled = { 'detail-type': 'Scheduled Event', source: 'aws.events', time: '2026-03-26T13:00:00Z', resources: [] };
    expect(served(scheduled)).toBe('2026-03-26T13:00:00.000Z');
  });

  it('refuses an hour that is no UTC day and hour, with the format it takes', () => {
    for (const hour of ['2026-03-26T7', '2026-03-26 07', '2026-03-26T07:00', '2026-13-01T07', '2026-02-30T07', '2026-03-26T24', 7, null]) {
      const run = reminderRunHour({ hour }, clock);
      expect(run, String(hour)).toMatchObject({ ok: false, error: 'invalid_hour' });
      if (!run.ok) expect(run.message).toContain('2026-03-26T07');
    }
  });

  it('refuses an hour that has not begun, and one whose slices the workers would drop as stale', () => {
    expect(served({ hour: '2026-03-26T15' })).toBe('hour_in_future');
    const latestStart = clock.getTime() - (MAX_SLICE_AGE_MS - RERUN_MARGIN_MS);
    const latestHour = new Date(Math.ceil(latestStart / 3_600_000) * 3_600_000).toISOString().slice(0, 13);
    expect(served({ hour: latestHour })).toBe(`${latestHour}:00:00.000Z`);
    const tooOld = new Date(Date.parse(`${latestHour}:00:00Z`) - 3_600_000).toISOString().slice(0, 13);
    expect(served({ hour: tooOld })).toBe('hour_too_old');
    expect(served({ hour: '2026-03-25T07' })).toBe('hour_too_old');
  });

  it('refuses any other event: unknown fields beside the hour, a bare string, a schedule event without a time', () => {
    expect(served({ hour: '2026-03-26T07', day: '2026-03-26' })).toBe('invalid_event');
    expect(served({ day: '2026-03-26' })).toBe('invalid_event');
    expect(served('2026-03-26T07')).toBe('invalid_event');
    expect(served([])).toBe('invalid_event');
    expect(served({ 'detail-type': 'Scheduled Event', time: 'yesterday' })).toBe('invalid_event');
  });
});
