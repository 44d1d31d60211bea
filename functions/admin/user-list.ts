import { USERS_DEFAULT_PAGE_SIZE } from '../../shared/constants';
import { dayOf } from '../lib/activity';
import { readStats, sumDayCounters, WEEK1_PENDING_PK, WEEK1_WINDOW_MS } from '../lib/stats';
import { indexPartition } from '../lib/table';
import { listPage, pageParams, type Stream } from './paging';
import {
  activeSince,
  STATUS_SCOPES,
  STATUSES_OF,
  toRows,
  USER_FILTERS,
  type ListRecord,
  type StatusScope,
  type UserFilter,
  type UserListQuery,
  type UserListResponse,
} from './user-list-rows';
import { searchUsers } from './user-search';
import { stalledUsers } from './stalled-users';
import { enrollmentListUsers } from './enrollment-list';
import { badRequest } from '../lib/errors';
import { currentDate } from '../lib/clock';

/**
 * `GET /api/admin/users` (docs/scale-reads.md). Every list is a key range, newest first, of an
 * index partitioned by status (functions/lib/users.ts userIndexKeys), so each status × cohort
 * costs one page: a status scope is the merge of its status partitions (live = active + locked,
 * all = the three), at most 3 × (page_size + 2) index items per page:
 *   no cohort → usersByStatus; unverified → usersUnverified; active7d/active30d →
 *   usersByActivity from the window's first day (most recently active first); week1_dropoff →
 *   the week1Pending enrollments older than 7 days (newest enrollments first), their accounts'
 *   status checked by key (a page may come back short: `has_next` and `next_cursor` continue);
 *   stalled_at → the stalledAt enrollments of that module (functions/admin/stalled-users.ts).
 * Rows come from the index items (list fields only), completion from one BatchGet of the page's
 * enrollments. Totals: the counters the writes keep, for every status × cohort (status counters,
 * unverified × status counters, the last-active histogram with its locked / deleted fields); the
 * drop-off and search lists, which no counter keeps per status, answer a lower bound instead.
 * Search (`query`, functions/admin/user-search.ts): a case-insensitive prefix of email, first
 * or last name, read in key order from the USERSEARCH items; status and cohort filters are
 * applied to each batch read, before any limit, and a page that the read budget ends early says
 * so (`truncated`, `has_next`).
 */
export {
  STATUS_SCOPES,
  USER_FILTERS,
  type StatusScope,
  type UserFilter,
  type UserListItem,
  type UserListQuery,
  type UserListResponse,
} from './user-list-rows';

/** Status counters → total of a plain list. */
async function scopeTotal(scope: StatusScope): Promise<number> {
  const stats = await readStats();
  switch (scope) {
    case '':
      return stats.users_total;
    case 'all':
      return stats.users_total + stats.users_deleted;
    case 'deleted':
      return stats.users_deleted;
    case 'locked':
      return stats.users_locked;
    case 'active':
      return stats.users_total - stats.users_locked;
  }
}

const exact = async (total: Promise<number>) => ({ total: await total, estimate: false });

/** Unverified accounts of a status scope, from the unverified-by-status counters (stats.ts unverifiedDeltas). */
async function unverifiedTotal(scope: StatusScope): Promise<number> {
  const stats = await readStats();
  const live = stats.users_total - stats.users_verified; // unverified active + locked
  const byStatus: Record<StatusScope, number> = {
    '': live,
    all: live + stats.users_unverified_deleted,
    active: live - stats.users_unverified_locked,
    locked: stats.users_unverified_locked,
    deleted: stats.users_unverified_deleted,
  };
  return Math.max(0, byStatus[scope]);
}

/**
 * Accounts of a status scope last active in the window, from the last-active histogram: every
 * account (`count`) and the locked / deleted among them (stats.ts lastActiveDeltas). One Query of
 * the window's day buckets, whatever the number of accounts.
 */
async function activeTotal(scope: StatusScope, days: number, now: Date): Promise<number> {
  const sums = await sumDayCounters('LASTACTIVE', activeSince(days, now), dayOf(now));
  const all = sums.count ?? 0;
  const locked = sums.count_locked ?? 0;
  const deleted = sums.count_deleted ?? 0;
  const byStatus: Record<StatusScope, number> = { '': all - deleted, all, active: all - locked - deleted, locked, deleted };
  return Math.max(0, byStatus[scope]);
}

export async function listUsers(raw: UserListQuery, now = currentDate()): Promise<UserListResponse> {
  const { page, size } = pageParams(raw, USERS_DEFAULT_PAGE_SIZE);
  const rawStatus = (raw.status ?? '').trim();
  let scope: StatusScope = (STATUS_SCOPES as readonly string[]).includes(rawStatus) ? (rawStatus as StatusScope) : '';
  const filter = (USER_FILTERS as readonly string[]).includes(raw.filter ?? '') ? (raw.filter as UserFilter) : undefined;
  if (filter === 'deleted') scope = 'deleted'; // the Deleted status and the deleted drill are linked
  const search = (raw.query ?? '').trim().toLowerCase().slice(0, 254);
  const list = JSON.stringify(['users', scope, filter ?? '', search]);

  const stalledAt = (raw.stalled_at ?? '').trim();
  if (stalledAt) {
    // the stalled list is one index partition: a search or a cohort would be another list's keys
    if (search || (raw.filter ?? '').trim()) throw badRequest('filter_not_combinable');
    return stalledUsers(stalledAt, raw, page, size);
  }
  if (search) return searchUsers(list, search, scope, filter, raw, page, size, now);
  if (filter === 'week1_dropoff') return dropoffUsers(list, scope, raw, page, size, now);

  const statuses = STATUSES_OF[scope];
  let streams: Stream[];
  let counter: () => Promise<{ total: number; estimate: boolean }>;
  if (filter === 'active7d' || filter === 'active30d') {
    streams = statuses.map((status) => ({
      index: 'usersByActivity',
      partition: indexPartition.usersByActivity(status),
      from: activeSince(filter === 'active7d' ? 7 : 30, now),
    }));
    counter = () => exact(activeTotal(scope, filter === 'active7d' ? 7 : 30, now));
  } else if (filter === 'unverified') {
    streams = statuses.map((status) => ({ index: 'usersUnverified', partition: indexPartition.usersUnverified(status) }));
    counter = () => exact(unverifiedTotal(scope));
  } else {
    streams = statuses.map((status) => ({ index: 'usersByStatus', partition: indexPartition.usersByStatus(status) }));
    counter = () => exact(scopeTotal(scope));
  }
  // every total is a counter read (a fixed number of small items): it runs alongside the page
  const result = await listPage(list, streams, raw, page, size, counter, 1, true);
  return { ...result, items: await toRows(result.items as unknown as ListRecord[]) };
}

/** Enrollments at least 7 days old whose week 1 was not completed on time (the dashboard's drop-off numerator). */
async function week1DropoffCount(now: Date): Promise<number> {
  const [stats, recent] = await Promise.all([readStats(), sumDayCounters('ENROLLDAY', activeSince(7, now), dayOf(now))]);
  const enrolled = recent.enrolled ?? 0;
  const onTime = recent.week1_on_time ?? 0;
  return Math.max(0, stats.enrollments_total - enrolled - (stats.week1_on_time_total - onTime));
}

/** Week-1 drop-off: enrollments older than 7 days whose week 1 was not completed on time, newest first. */
function dropoffUsers(
  list: string,
  scope: StatusScope,
  raw: UserListQuery,
  page: number,
  size: number,
  now: Date,
): Promise<UserListResponse> {
  const cutoff = new Date(now.getTime() - WEEK1_WINDOW_MS).toISOString();
  const stream: Stream = { index: 'week1Pending', partition: WEEK1_PENDING_PK, to: `${cutoff}#~` };
  return enrollmentListUsers(list, stream, scope, raw, page, size, async () => (scope === '' ? week1DropoffCount(now) : undefined));
}
