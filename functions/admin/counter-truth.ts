import { lastActiveDeltas, type CountedEnrollment, type DayCounter, enrollmentCounts, week1CountedOnTime } from '../lib/stats';
import type { UserStatus } from '../lib/user-record';
import { newUserCounts } from '../lib/users';

/**
 * The pure part of the counters' reconciliation (functions/admin/counter-reconcile.ts): what the
 * counters should hold, summed from the accounts and their enrollments, compared with what they
 * hold, and which differences to correct.
 *
 * Every counter value has one flat name, the same in the truth, the stored sums, the drift and the
 * job item: `GLOBAL/<field>` for a field of the STATS#GLOBAL shards (the module funnel's
 * `funnel_completed:<module id>` included), `<counter>/<day>/<field>` for a day counter
 * (`LASTACTIVE/2026-03-01/count_locked`).
 */
export type Tally = Record<string, number>;

const GLOBAL = 'GLOBAL';
export const globalName = (field: string) => `${GLOBAL}/${field}`;
export const dayName = (counter: DayCounter, day: string, field: string) => `${counter}/${day}/${field}`;

/** A counter value's name read back: a global field, or a day counter's day and field. */
export function parseName(name: string): { global: string } | { counter: DayCounter; day: string; field: string } {
  const [head, ...rest] = name.split('/');
  if (head === GLOBAL) return { global: rest.join('/') };
  return { counter: head as DayCounter, day: rest[0], field: rest[1] };
}

/** The fields of each day counter the reconciliation compares (what the writes add to them). */
export const DAY_FIELDS: Record<DayCounter, readonly string[]> = {
  LASTACTIVE: ['count', 'count_locked', 'count_deleted'],
  DAILYACTIVE: ['count'],
  ENROLLDAY: ['enrolled', 'week1_on_time'],
};

/** The days of each day counter a run compares: LASTACTIVE and DAILYACTIVE over 31 days, ENROLLDAY over 8 (the summary reads 30 and 7). */
export interface ReconcileWindow {
  lastActive: readonly string[];
  dailyActive: readonly string[];
  enrollDay: readonly string[];
}

/** An account as the usersByStatus index lists it (the fields the counters depend on). */
export interface WalkedAccount {
  id: string;
  status: UserStatus;
  verified?: boolean;
  last_active_day?: string;
}

const add = (tally: Tally, name: string, value: number) => {
  if (value) tally[name] = (tally[name] ?? 0) + value;
};

/**
 * Adds what one account (and its enrollment, if any) is counted as, as the writes count it:
 * the status × verification counters (`newUserCounts`), the enrollment's totals and funnel
 * (`enrollmentCounts`), its enroll day's bucket, and its last-active day's histogram fields
 * (soft-deleted accounts keep theirs in `count` and `count_deleted` until the hard delete).
 */
export function tallyAccount(tally: Tally, account: WalkedAccount, enrollment: CountedEnrollment | undefined, window: ReconcileWindow) {
  for (const [field, value] of Object.entries(newUserCounts({ status: account.status, verified: Boolean(account.verified) })))
    add(tally, globalName(field), value ?? 0);
  if (account.last_active_day && window.lastActive.includes(account.last_active_day))
    for (const [field, value] of Object.entries(lastActiveDeltas(account.status, 1)))
      add(tally, dayName('LASTACTIVE', account.last_active_day, field), value);
  if (!enrollment || enrollment.staff) return;
  for (const [field, value] of Object.entries(enrollmentCounts(enrollment))) add(tally, globalName(field), value ?? 0);
  const enrollDay = enrollment.enrolled_at.slice(0, 10);
  if (window.enrollDay.includes(enrollDay)) {
    add(tally, dayName('ENROLLDAY', enrollDay, 'enrolled'), 1);
    add(tally, dayName('ENROLLDAY', enrollDay, 'week1_on_time'), week1CountedOnTime(enrollment) ? 1 : 0);
  }
}

/** One decimal: the percent sum is kept in tenths (functions/program/learner-program.ts roundDelta), every other value in units. */
const tenths = (value: number) => Math.round(value * 10) / 10;

/**
 * truth − stored for every value either side names (the stored global fields, the funnel fields
 * of either side, the compared fields of the window's days), the zeros left out.
 */
export function driftOf(truth: Tally, stored: Tally): Tally {
  const drift: Tally = {};
  for (const name of new Set([...Object.keys(truth), ...Object.keys(stored)])) {
    const value = tenths((truth[name] ?? 0) - (stored[name] ?? 0));
    if (value) drift[name] = value;
  }
  return drift;
}

/**
 * The values to correct: a drift the previous run saw too, with the same value. A write racing
 * the walk (counted in the truth and not yet in the counters, or the other way round) makes a
 * difference that the next run does not see again; a counter that is really off by some amount
 * is off by it the next day as well.
 */
export function correctionsOf(drift: Tally, previous: Tally | undefined): Tally {
  return Object.fromEntries(Object.entries(drift).filter(([name, value]) => previous?.[name] === value));
}

/** What the next run compares with: the drift seen, less what was corrected (a corrected value must be seen twice again). */
export const residualOf = (drift: Tally, corrected: Tally): Tally =>
  Object.fromEntries(Object.entries(drift).filter(([name]) => !(name in corrected)));

/** The sum of the absolute drifts (the CounterDrift gauge). */
export const totalOf = (drift: Tally) => tenths(Object.values(drift).reduce((sum, value) => sum + Math.abs(value), 0));

/** Corrections grouped as their writes need them: the global fields (one shard) and each day counter item's fields. */
export function groupCorrections(corrections: Tally): {
  global: Record<string, number>;
  days: Array<{ counter: DayCounter; day: string; deltas: Record<string, number> }>;
} {
  const global: Record<string, number> = {};
  const days = new Map<string, { counter: DayCounter; day: string; deltas: Record<string, number> }>();
  for (const [name, value] of Object.entries(corrections)) {
    const parsed = parseName(name);
    if ('global' in parsed) {
      global[parsed.global] = value;
      continue;
    }
    const key = `${parsed.counter}/${parsed.day}`;
    const entry = days.get(key) ?? { counter: parsed.counter, day: parsed.day, deltas: {} };
    entry.deltas[parsed.field] = value;
    days.set(key, entry);
  }
  return { global, days: [...days.values()] };
}
