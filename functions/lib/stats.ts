import { batchGetItems } from './batch-items';
import { queryAll } from './query-pages';
import { tableName } from './db';
import { countedOf, funnelDeltas, type FunnelField } from './funnel';
import { dayCounterPartition, indexKeys, indexPartition, keys, SK } from './table';

/**
 * Aggregates kept by writes (docs/scale-writes.md): atomic ADD counters in the same transaction
 * as the write they count, so every admin figure is exact at once. They are write-sharded so a
 * burst of learners (registrations, first logins, completions) spreads over many items instead
 * of conflicting on one; a conflict or throttle left is retried with jitter
 * (functions/lib/retry.ts). The admin summary reads the fixed set of shards.
 */
export const STATS_SHARDS = 10;
/** Shards of each day counter (STATS#DAILYACTIVE / LASTACTIVE / ENROLLDAY, one set per day). */
export const DAY_SHARDS = 16;

export type StatsField =
  | 'users_total' // accounts not deleted
  | 'users_verified' // verified accounts not deleted
  | 'enrollments_total'
  | 'enrollment_percent_sum' // sum of every enrollment's percent_complete (for the average)
  | 'modules_completed_total' // completed modules across all enrollments
  | 'modules_total' // modules across all enrollments
  | 'users_locked' // accounts with status locked (users_total − users_locked = active)
  | 'users_deleted' // soft-deleted accounts (not yet hard-deleted)
  | 'users_unverified_locked' // unverified accounts with status locked (the unverified × locked list's total)
  | 'users_unverified_deleted' // unverified soft-deleted accounts (the unverified × deleted list's total)
  | 'week1_on_time_total'; // enrollments whose week 1 was completed within 7 days of enrolling

type TransactItem = {
  Update: {
    TableName: string;
    Key: Record<string, string>;
    UpdateExpression: string;
    ExpressionAttributeValues: Record<string, number>;
    ExpressionAttributeNames: Record<string, string>;
  };
};

/** A TransactWriteItems Update that atomically ADDs each non-zero delta to the item at `key`. */
function addDeltas(key: Record<string, string>, deltas: Record<string, number | undefined>): TransactItem | undefined {
  const entries = Object.entries(deltas).filter(([, delta]) => delta);
  if (!entries.length) return undefined;
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  const parts = entries.map(([field, delta], index) => {
    names[`#f${index}`] = field;
    values[`:d${index}`] = delta as number;
    return `#f${index} :d${index}`;
  });
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: `ADD ${parts.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** A TransactWriteItems entry that adds the deltas to one random shard (in the same transaction as the write it counts). */
export function statsUpdate(deltas: Partial<Record<StatsField | FunnelField, number>>): TransactItem | undefined {
  return statsShardUpdate(Math.floor(Math.random() * STATS_SHARDS), deltas);
}

/** The same on a given shard (an operator's correction, which needs no spreading). */
export function statsShardUpdate(shard: number, deltas: Partial<Record<StatsField | FunnelField, number>>): TransactItem | undefined {
  return addDeltas(keys.statsShard(shard), deltas);
}

/** Sums every shard: a fixed number of reads whatever the number of users. */
export async function readStats(): Promise<Record<StatsField, number>> {
  return (await readStatsWithFunnel()).stats;
}

/**
 * The totals and the module funnel counters (functions/lib/funnel.ts) of every shard, summed:
 * one BatchGet of STATS_SHARDS small items (a few fields per module of the program).
 */
export async function readStatsWithFunnel(): Promise<{ stats: Record<StatsField, number>; funnel: Map<FunnelField, number> }> {
  // every shard or an error: a shard left unprocessed would make the summary undercount
  const shards = await batchGetItems(Array.from({ length: STATS_SHARDS }, (_, shard) => keys.statsShard(shard)));
  const totals: Record<StatsField, number> = {
    users_total: 0,
    users_verified: 0,
    enrollments_total: 0,
    enrollment_percent_sum: 0,
    modules_completed_total: 0,
    modules_total: 0,
    users_locked: 0,
    users_deleted: 0,
    users_unverified_locked: 0,
    users_unverified_deleted: 0,
    week1_on_time_total: 0,
  };
  const funnel = new Map<FunnelField, number>();
  for (const item of shards) {
    for (const field of Object.keys(totals) as StatsField[]) totals[field] += Number(item[field] ?? 0);
    for (const [field, value] of Object.entries(item)) {
      if (field.startsWith('funnel_')) funnel.set(field as FunnelField, (funnel.get(field as FunnelField) ?? 0) + Number(value ?? 0));
    }
  }
  return { stats: totals, funnel };
}

/** The facts of an account that the status × verification counters count. */
type CountedUser = { status: string; verified?: boolean };

/**
 * The deltas of the unverified-by-status counters when an account goes from `before` to `after`
 * (undefined: the account does not exist, or no longer counts — hard delete). Every write that
 * changes an account's status or verification merges them into its one `statsUpdate`, so the
 * unverified × status lists have exact totals without a COUNT (docs/scale-reads.md). Unverified
 * active accounts need no counter of their own: users_total − users_verified − the locked ones.
 */
export function unverifiedDeltas(before: CountedUser | undefined, after: CountedUser | undefined): Partial<Record<StatsField, number>> {
  const count = (user: CountedUser | undefined, status: string) => (user && !user.verified && user.status === status ? 1 : 0);
  return {
    users_unverified_locked: count(after, 'locked') - count(before, 'locked'),
    users_unverified_deleted: count(after, 'deleted') - count(before, 'deleted'),
  };
}

/**
 * Week-1 drop-off (admin summary) = enrollments at least 7 days old whose week 1 was not
 * completed within 7 days of enrolling ÷ enrollments at least 7 days old. Kept with fixed-size
 * reads: the cumulative totals (enrollments_total, week1_on_time_total) minus the last 7
 * enroll-day buckets (STATS#ENROLLDAY / DAY#<enroll day>: `enrolled`, `week1_on_time`), which
 * hold the enrollments that are not mature yet. Hook-ups for the program's writes:
 *  - enrolling: `enrollmentCreatedWrites(enrolledAt)` + `week1PendingIndexKeys(...)` on the item;
 *  - week 1 completed (first time): `week1CompletedWrites(enrolledAt, completedAt)` and REMOVE
 *    the week1Pending index keys when it returns on-time writes (a late completion stays a drop-off).
 */
export const WEEK1_WINDOW_MS = 7 * 24 * 3600 * 1000;

/** Adds to the enroll-day bucket of `enrolledAt` (a TransactWriteItems entry on a random shard of that day). */
export function enrollDayUpdate(enrolledAt: string, deltas: { enrolled?: number; week1_on_time?: number }): TransactItem {
  // Every caller passes a non-zero delta (enrolled ±1 or week1_on_time ±1).
  return dayCounterUpdate('ENROLLDAY', enrolledAt.slice(0, 10), deltas)!;
}

export type DayCounter = 'DAILYACTIVE' | 'LASTACTIVE' | 'ENROLLDAY';
const dayShardKey: Record<DayCounter, (day: string, shard: number) => Record<string, string>> = {
  DAILYACTIVE: keys.dailyActiveShard,
  LASTACTIVE: keys.lastActiveDayShard,
  ENROLLDAY: keys.enrollDayShard,
};

/**
 * A TransactWriteItems entry adding `deltas` to a random shard of `day`'s counter: concurrent
 * learners of the same day (the login wave) mostly touch different items. Sums are exact
 * whatever shard a delta lands on (a −1 may go to another shard than its +1).
 */
export function dayCounterUpdate(counter: DayCounter, day: string, deltas: Record<string, number | undefined>): TransactItem | undefined {
  return addDeltas(dayShardKey[counter](day, Math.floor(Math.random() * DAY_SHARDS)), deltas);
}

/**
 * The last-active histogram (STATS#LASTACTIVE) counts every account in `count` and, among them,
 * the locked and the soft-deleted ones in these fields, so that active in the last N days × any
 * status is a sum of day buckets (docs/scale-reads.md "Totals"). An activity moves an account's
 * fields from its previous day to today; a status change moves them within its last-active day.
 */
const LAST_ACTIVE_STATUS_FIELD: Partial<Record<string, string>> = { locked: 'count_locked', deleted: 'count_deleted' };

/** `count` (when `withCount`) and the status's own field of the last-active histogram, each `sign`. */
export function lastActiveDeltas(status: string, sign: 1 | -1, withCount = true): Record<string, number> {
  const field = LAST_ACTIVE_STATUS_FIELD[status];
  return { ...(withCount ? { count: sign } : {}), ...(field ? { [field]: sign } : {}) };
}

/**
 * The histogram write of an account going from its status to `after` (undefined: the account
 * is erased), in its last-active day; none for an account never active. It must be in the same
 * transaction as the status change, and that transaction must hold `last_active_day` unchanged
 * (an activity moving the account to another day meanwhile fails it, and it is decided again).
 */
export function lastActiveStatusMove(
  user: { status: string; last_active_day?: string },
  after: string | undefined,
): TransactItem | undefined {
  if (!user.last_active_day || user.status === after) return undefined;
  const deltas: Record<string, number> = { ...lastActiveDeltas(user.status, -1, after === undefined) };
  if (after !== undefined) Object.assign(deltas, lastActiveDeltas(after, 1, false));
  return dayCounterUpdate('LASTACTIVE', user.last_active_day, deltas);
}

/** The sums of each numeric field of a day counter over [fromDay, toDay] (every shard, today's included). */
export async function sumDayCounters(counter: DayCounter, fromDay: string, toDay: string): Promise<Record<string, number>> {
  const sums: Record<string, number> = {};
  for (const day of (await readDayCounters(counter, fromDay, toDay)).values())
    for (const [field, value] of Object.entries(day)) sums[field] = (sums[field] ?? 0) + value;
  return sums;
}

/**
 * A day counter over [fromDay, toDay], per day: the sum of the day's shards (and of the
 * unsharded `DAY#<day>` item older writes kept). One Query of at most days × (DAY_SHARDS + 1)
 * small items, whatever the number of learners.
 */
export async function readDayCounters(counter: DayCounter, fromDay: string, toDay: string): Promise<Map<string, Record<string, number>>> {
  const totals = new Map<string, Record<string, number>>();
  const items = await queryAll({
    // '~' sorts after every shard suffix ('#00'…'#15') of the last day
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': dayCounterPartition(counter), ':from': `${SK.day}${fromDay}`, ':to': `${SK.day}${toDay}~` },
  });
  for (const item of items) {
    const day = String(item.sk).slice(4, 14);
    const sum = totals.get(day) ?? {};
    for (const [field, value] of Object.entries(item))
      if (typeof value === 'number' && field !== 'expires_at') sum[field] = (sum[field] ?? 0) + value;
    totals.set(day, sum);
  }
  return totals;
}

/** The counters a new enrollment adds (besides the program's own enrollments_total/modules_total). */
export function enrollmentCreatedWrites(enrolledAt: string) {
  return [enrollDayUpdate(enrolledAt, { enrolled: 1 })];
}

/** True when week 1 was completed within 7 days of enrolling. */
export const week1OnTime = (enrolledAt: string, completedAt: string) => Date.parse(completedAt) - Date.parse(enrolledAt) <= WEEK1_WINDOW_MS;

/** The fields of an enrollment item (functions/program/store.ts) that the global counters count. */
export interface CountedEnrollment {
  percent_complete?: number;
  completed_count?: number;
  module_count?: number;
  enrolled_at: string;
  week1_completed_at?: string;
  staff?: boolean;
  funnel_completed?: string[];
  funnel_in_progress?: string[];
}

/** Whether the enrollment is counted in week1_on_time (its week 1 completed within 7 days). */
export const week1CountedOnTime = (enrollment: Pick<CountedEnrollment, 'enrolled_at' | 'week1_completed_at'>) =>
  Boolean(enrollment.week1_completed_at && week1OnTime(enrollment.enrolled_at, enrollment.week1_completed_at));

/**
 * What an enrollment adds to the global counters while it exists (nothing for a staff preview,
 * docs/product.md#10-journeys): the writes add it step by step, the hard delete takes it back
 * whole, and the reconciliation (functions/admin/counter-reconcile.ts) sums it over the accounts.
 */
export function enrollmentCounts(enrollment: CountedEnrollment): Partial<Record<StatsField | FunnelField, number>> {
  if (enrollment.staff) return {};
  return {
    enrollments_total: 1,
    enrollment_percent_sum: Number(enrollment.percent_complete ?? 0),
    modules_completed_total: Number(enrollment.completed_count ?? 0),
    modules_total: Number(enrollment.module_count ?? 0),
    week1_on_time_total: week1CountedOnTime(enrollment) ? 1 : 0,
    // the module funnel: what it is counted as (functions/lib/funnel.ts)
    ...funnelDeltas(undefined, countedOf(enrollment)),
  };
}

/** The deltas that take `deltas` back. */
export const negated = <K extends string>(deltas: Partial<Record<K, number>>): Partial<Record<K, number>> =>
  Object.fromEntries(Object.entries(deltas).map(([field, delta]) => [field, -Number(delta)])) as Partial<Record<K, number>>;

/**
 * The counters of a first week-1 completion: none when it came too late (it stays a drop-off).
 * `stats` must be merged into the transaction's one `statsUpdate` (two shard updates in one
 * transaction can hit the same shard item, which DynamoDB refuses); `writes` are added as they are.
 */
export function week1CompletedWrites(
  enrolledAt: string,
  completedAt: string,
): { stats: Partial<Record<StatsField, number>>; writes: TransactItem[] } {
  if (!week1OnTime(enrolledAt, completedAt)) return { stats: {}, writes: [] };
  return { stats: { week1_on_time_total: 1 }, writes: [enrollDayUpdate(enrolledAt, { week1_on_time: 1 })] };
}

/**
 * Sparse index of enrollments whose week 1 is not completed on time (week1Pending on the ENROLLMENT
 * item): the week-1 drop-off cohort is the part older than 7 days, newest enrollments first.
 */
export const WEEK1_PENDING_PK = indexPartition.week1Pending();
export const week1PendingIndexKeys = (userId: string, enrolledAt: string) => indexKeys.week1Pending(userId, enrolledAt);
