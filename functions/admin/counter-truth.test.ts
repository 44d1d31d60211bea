import { describe, expect, it } from 'vitest';
import {
  correctionsOf,
  dayName,
  driftOf,
  globalName,
  groupCorrections,
  parseName,
  type ReconcileWindow,
  residualOf,
  type Tally,
  tallyAccount,
  totalOf,
} from './counter-truth';

const window: ReconcileWindow = {
  lastActive: ['2026-03-01', '2026-03-02', '2026-03-03'],
  dailyActive: ['2026-03-01', '2026-03-02', '2026-03-03'],
  enrollDay: ['2026-03-02', '2026-03-03'],
};
const enrollment = {
  percent_complete: 33.3,
  completed_count: 1,
  module_count: 3,
  enrolled_at: '2026-03-02T10:00:00.000Z',
  week1_completed_at: '2026-03-05T10:00:00.000Z',
  funnel_completed: ['m1'],
  funnel_in_progress: ['m2'],
};

describe('tallyAccount: what the writes count an account and its enrollment as', () => {
  it('an active verified learner: users, verified, the enrollment totals and funnel, its enroll day and last-active day', () => {
    const tally: Tally = {};
    tallyAccount(tally, { id: 'a', status: 'active', verified: true, last_active_day: '2026-03-03' }, enrollment, window);
    expect(tally).toEqual({
      'GLOBAL/users_total': 1,
      'GLOBAL/users_verified': 1,
      'GLOBAL/enrollments_total': 1,
      'GLOBAL/enrollment_percent_sum': 33.3,
      'GLOBAL/modules_completed_total': 1,
      'GLOBAL/modules_total': 3,
      'GLOBAL/week1_on_time_total': 1,
      'GLOBAL/funnel_completed:m1': 1,
      'GLOBAL/funnel_in_progress:m2': 1,
      'ENROLLDAY/2026-03-02/enrolled': 1,
      'ENROLLDAY/2026-03-02/week1_on_time': 1,
      'LASTACTIVE/2026-03-03/count': 1,
    });
  });

  it('locked and soft-deleted accounts: their status counters and the histogram fields of their status; a deleted one keeps its enrollment counted', () => {
    const tally: Tally = {};
    tallyAccount(tally, { id: 'l', status: 'locked', verified: false, last_active_day: '2026-03-01' }, undefined, window);
    tallyAccount(tally, { id: 'd', status: 'deleted', verified: false, last_active_day: '2026-03-01' }, enrollment, window);
    expect(tally).toMatchObject({
      'GLOBAL/users_total': 1,
      'GLOBAL/users_locked': 1,
      'GLOBAL/users_unverified_locked': 1,
      'GLOBAL/users_deleted': 1,
      'GLOBAL/users_unverified_deleted': 1,
      'GLOBAL/enrollments_total': 1,
      'LASTACTIVE/2026-03-01/count': 2,
      'LASTACTIVE/2026-03-01/count_locked': 1,
      'LASTACTIVE/2026-03-01/count_deleted': 1,
    });
    expect(tally['GLOBAL/users_verified']).toBeUndefined();
  });

  it('leaves out a staff preview, a late week 1, and days outside the window', () => {
    const tally: Tally = {};
    tallyAccount(
      tally,
      { id: 's', status: 'active', verified: true, last_active_day: '2026-02-20' },
      { ...enrollment, staff: true },
      window,
    );
    expect(tally).toEqual({ 'GLOBAL/users_total': 1, 'GLOBAL/users_verified': 1 });
    tallyAccount(
      tally,
      { id: 'o', status: 'active', verified: true },
      { ...enrollment, enrolled_at: '2026-02-01T00:00:00.000Z', week1_completed_at: '2026-02-20T00:00:00.000Z' },
      window,
    );
    expect(tally['GLOBAL/enrollments_total']).toBe(1);
    expect(tally['GLOBAL/week1_on_time_total']).toBeUndefined();
    expect(Object.keys(tally).filter((name) => !name.startsWith('GLOBAL/'))).toEqual([]);
  });
});

describe('drift and corrections', () => {
  it('is truth − stored over the names of both sides, in tenths, zeros left out', () => {
    const truth = { 'GLOBAL/users_total': 10, 'GLOBAL/enrollment_percent_sum': 100.3, 'LASTACTIVE/2026-03-01/count': 4 };
    const stored = { 'GLOBAL/users_total': 13, 'GLOBAL/enrollment_percent_sum': 100.30000000000001, 'DAILYACTIVE/2026-03-01/count': 2 };
    expect(driftOf(truth, stored)).toEqual({
      'GLOBAL/users_total': -3,
      'LASTACTIVE/2026-03-01/count': 4,
      'DAILYACTIVE/2026-03-01/count': -2,
    });
    expect(totalOf(driftOf(truth, stored))).toBe(9);
  });

  it('corrects only a drift the previous run saw with the same value; what the next run compares with leaves the corrected out', () => {
    const drift = { 'GLOBAL/users_total': -3, 'GLOBAL/users_locked': 2, 'LASTACTIVE/2026-03-01/count': 1 };
    expect(correctionsOf(drift, undefined)).toEqual({});
    const corrected = correctionsOf(drift, { 'GLOBAL/users_total': -3, 'GLOBAL/users_locked': 1 });
    expect(corrected).toEqual({ 'GLOBAL/users_total': -3 });
    expect(residualOf(drift, corrected)).toEqual({ 'GLOBAL/users_locked': 2, 'LASTACTIVE/2026-03-01/count': 1 });
  });

  it('groups corrections per item: the global fields together, each day counter item on its own', () => {
    const funnel = globalName('funnel_completed:week-1/intro');
    expect(parseName(funnel)).toEqual({ global: 'funnel_completed:week-1/intro' });
    expect(parseName(dayName('ENROLLDAY', '2026-03-02', 'week1_on_time'))).toEqual({
      counter: 'ENROLLDAY',
      day: '2026-03-02',
      field: 'week1_on_time',
    });
    expect(
      groupCorrections({
        'GLOBAL/users_total': -3,
        [funnel]: 1,
        'LASTACTIVE/2026-03-01/count': 2,
        'LASTACTIVE/2026-03-01/count_locked': 1,
        'DAILYACTIVE/2026-03-01/count': -1,
      }),
    ).toEqual({
      global: { users_total: -3, 'funnel_completed:week-1/intro': 1 },
      days: [
        { counter: 'LASTACTIVE', day: '2026-03-01', deltas: { count: 2, count_locked: 1 } },
        { counter: 'DAILYACTIVE', day: '2026-03-01', deltas: { count: -1 } },
      ],
    });
  });
});
