import { dayOf } from '../lib/activity';
import { funnelField } from '../lib/funnel';
import { readDayCounters, readStatsWithFunnel } from '../lib/stats';
import { publishedProgram } from '../program/published-program';
import type { AdminSummary } from '../../shared/admin-types';
import { currentDate } from '../lib/clock';

export type { AdminSummary };

/**
 * `GET /api/admin/summary` (docs/product.md#2-screens-and-routes "Admin dashboard", #3-entities-and-their-fields "Admin summary"). It reads a fixed set
 * of items kept up to date by the writes, whatever the number of accounts:
 *  - the 10 STATS#GLOBAL shards (one BatchGet): users, verified, enrollments, percent and module sums,
 *    and the module funnel counters (functions/lib/funnel.ts): per module completed / in progress;
 *  - STATS#LASTACTIVE, the last 30 day buckets (one Query): active 7d/30d = accounts not
 *    soft-deleted whose last active day is in the window (distinct learners): the population of
 *    the Users card and of the drill-down lists, so "N active (7d)" never exceeds the users;
 *  - STATS#DAILYACTIVE, the last 30 days (one Query): the two charts;
 *  - STATS#ENROLLDAY, the last 7 enroll days (one Query): enrollments not yet 7 days old, taken
 *    out of the week-1 drop-off's cumulative totals. `week1_measured` says how many enrollments the
 *    drop-off measures: with none a week old the fraction is 0 by convention, and the dashboard
 *    shows "—" with the reason instead of a drop-off nobody was measured for.
 * The day counters are write-sharded (functions/lib/stats.ts readDayCounters sums a day's shards).
 */
const DAY_MS = 24 * 3600 * 1000;

/** The last `n` UTC days, oldest first, ending today. */
export const lastDays = (n: number, now: Date) =>
  Array.from({ length: n }, (_, index) => dayOf(new Date(now.getTime() - (n - 1 - index) * DAY_MS)));

const ratio = (part: number, whole: number) => (whole > 0 ? Math.min(1, Math.max(0, part / whole)) : 0);
const oneDecimal = (value: number) => Math.round(value * 10) / 10;

export async function adminSummary(now = currentDate()): Promise<AdminSummary> {
  const days30 = lastDays(30, now);
  const days7 = days30.slice(-7);
  const [{ stats, funnel }, lastActive, dailyActive, enrollDays] = await Promise.all([
    readStatsWithFunnel(),
    readDayCounters('LASTACTIVE', days30[0], days30[29]),
    readDayCounters('DAILYACTIVE', days30[0], days30[29]),
    readDayCounters('ENROLLDAY', days7[0], days7[6]),
  ]);
  const sum = (days: string[], counts: Map<string, Record<string, number>>, field: string) =>
    days.reduce((total, day) => total + Number(counts.get(day)?.[field] ?? 0), 0);
  const activeIn = (days: string[]) => Math.max(0, sum(days, lastActive, 'count') - sum(days, lastActive, 'count_deleted'));

  // Enrollments of the last 7 enroll days are not mature: their week 1 is still running.
  const mature = stats.enrollments_total - sum(days7, enrollDays, 'enrolled');
  const matureOnTime = stats.week1_on_time_total - sum(days7, enrollDays, 'week1_on_time');
  const series = (days: string[]) => days.map((date) => ({ date, count: Math.max(0, Number(dailyActive.get(date)?.count ?? 0)) }));

  return {
    as_of_utc: now.toISOString(),
    dropoff_method: '7d',
    cards: {
      total_users: stats.users_total,
      total_enrollments: stats.enrollments_total,
      avg_completion: stats.enrollments_total > 0 ? oneDecimal(stats.enrollment_percent_sum / stats.enrollments_total) : 0,
      active_7d: activeIn(days7),
      active_30d: activeIn(days30),
      verification_rate: ratio(stats.users_verified, stats.users_total),
      week1_dropoff: ratio(mature - matureOnTime, mature),
      week1_measured: Math.max(0, mature),
    },
    completion: { aggregate_pct: stats.modules_total > 0 ? oneDecimal((stats.modules_completed_total / stats.modules_total) * 100) : 0 },
    drill: {
      active_7d: '/admin/users?filter=active7d',
      active_30d: '/admin/users?filter=active30d',
      unverified: '/admin/users?filter=unverified',
      week1_dropoff: '/admin/users?filter=week1_dropoff',
    },
    series: { actives_7d_daily: series(days7), actives_30d_daily: series(days30) },
    funnel: (await publishedProgram()).modules.map((module) => ({
      module_id: module.module_id,
      slug: module.slug,
      title: module.title,
      week_number: module.week_number,
      completed: Math.max(0, funnel.get(funnelField.completed(module.module_id)) ?? 0),
      in_progress: Math.max(0, funnel.get(funnelField.inProgress(module.module_id)) ?? 0),
    })),
  };
}
