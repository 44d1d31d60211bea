import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { USERS_DEFAULT_PAGE_SIZE } from '../../shared/constants';
import { program } from '../program/content';
import { dayOf } from '../lib/activity';
import { batchGetItems } from '../lib/batch-items';
import { db, tableName } from '../lib/db';
import { readStats, sumDayCounters, WEEK1_PENDING_PK, WEEK1_WINDOW_MS } from '../lib/stats';
import { INDEX, indexPartition, keys, USER_LIST_FIELDS } from '../lib/table';
import type { UserRecord, UserStatus } from '../lib/user-record';
import { SEARCH_FIELDS, searchValue } from '../lib/users';
import type { AdminUserListItem } from '../../shared/admin-types';
import { decodeCursor, encodeCursor, listPage, pageParams, readMerged, type ListPage, type Stream } from './paging';

/**
 * `GET /api/admin/users` (docs/scale-reads.md). Every list is a key range, newest first, of an
 * index partitioned by status (functions/lib/users.ts userIndexKeys), so each status × cohort
 * costs one page: a status scope is the merge of its status partitions (live = active + locked,
 * all = the three), at most 3 × (page_size + 2) index items per page:
 *   no cohort → usersByStatus; unverified → usersUnverified; active7d/active30d →
 *   usersByActivity from the window's first day (most recently active first); week1_dropoff →
 *   the week1Pending enrollments older than 7 days (newest enrollments first), their accounts'
 *   status checked by key (a page may come back short: `has_next` and `next_cursor` continue).
 * Rows come from the index items (list fields only), completion from one BatchGet of the page's
 * enrollments. Totals: the counters the writes keep, for every status × cohort (status counters,
 * unverified × status counters, the last-active histogram with its locked / deleted fields); the
 * drop-off and search lists, which no counter keeps per status, answer a lower bound instead.
 * Search (`query`): a case-insensitive prefix of email, first or last name, read in key order
 * from the USERSEARCH items; status and cohort filters are applied to each batch read, before
 * any limit, and a page that the read budget ends early says so (`truncated`, `has_next`).
 */
export const USER_FILTERS = ['active7d', 'active30d', 'unverified', 'week1_dropoff', 'deleted'] as const;
export type UserFilter = (typeof USER_FILTERS)[number];
export const STATUS_SCOPES = ['', 'all', 'deleted', 'active', 'locked'] as const;
export type StatusScope = (typeof STATUS_SCOPES)[number];
/** Rounds of a list read in rounds (search, drop-off), per request at most. */
const SEARCH_ROUNDS = 3;
/** Search items one round reads at most, per row of the page (they are small: ~150 bytes). */
const SEARCH_ITEMS_PER_ROUND = 8;

/** A row of `GET /api/admin/users` (shared/admin-types.ts: the console reads the same type). */
export type UserListItem = AdminUserListItem;

export type UserListResponse = ListPage<UserListItem>;

export interface UserListQuery {
  page?: string;
  page_size?: string;
  cursor?: string;
  query?: string;
  filter?: string;
  status?: string;
}

const DAY_MS = 24 * 3600 * 1000;
const activeSince = (days: number, now: Date) => dayOf(new Date(now.getTime() - (days - 1) * DAY_MS));

const STATUSES_OF: Record<StatusScope, UserStatus[]> = {
  '': ['active', 'locked'],
  all: ['active', 'locked', 'deleted'],
  deleted: ['deleted'],
  active: ['active'],
  locked: ['locked'],
};

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

type Completion = Map<string, { pct: number; count: number }>;

/** Completion by account, from the enrollment items found (an account without one is absent). */
const completionFrom = (enrollments: Record<string, unknown>[]): Completion =>
  new Map(enrollments.map((item) => [String(item.user_id), { pct: Number(item.percent_complete ?? 0), count: 1 }]));

async function completionOf(
  userIds: string[],
  extraFields = '',
): Promise<{ completion: Completion; enrollments: Record<string, unknown>[] }> {
  const programId = program().id;
  const enrollments = await batchGetItems(
    userIds.map((id) => keys.enrollment(id, programId)),
    { projection: `user_id,percent_complete${extraFields}`.split(',') },
  );
  return { completion: completionFrom(enrollments), enrollments };
}

type ListRecord = Pick<UserRecord, (typeof USER_LIST_FIELDS)[number]>;

/** The rows of a page; `known` = completion already read for these accounts (else one BatchGet). */
async function toRows(users: ListRecord[], known?: Completion): Promise<UserListItem[]> {
  const completion = known ?? (users.length ? (await completionOf(users.map((user) => user.id))).completion : (new Map() as Completion));
  return users.map((user) => ({
    id: user.id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    status: user.status,
    is_locked: Boolean(user.is_locked),
    created_at: user.created_at,
    last_login_at: user.last_login_at ?? null,
    role: user.role,
    verified: Boolean(user.verified),
    completion_pct: completion.get(user.id)?.pct ?? 0,
    enrollments: completion.get(user.id)?.count ?? 0,
  }));
}

/** The list fields of accounts by id (a BatchGet that leaves the secrets out), in the given order. */
const profilesOf = async (userIds: string[]) => {
  const found = (await batchGetItems(
    userIds.map((id) => keys.user(id)),
    { projection: USER_LIST_FIELDS },
  )) as unknown as ListRecord[];
  const byId = new Map(found.map((user) => [user.id, user]));
  return userIds.map((id) => byId.get(id)).filter((user): user is ListRecord => Boolean(user));
};

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

export async function listUsers(raw: UserListQuery, now = new Date()): Promise<UserListResponse> {
  const { page, size } = pageParams(raw, USERS_DEFAULT_PAGE_SIZE);
  const rawStatus = (raw.status ?? '').trim();
  let scope: StatusScope = (STATUS_SCOPES as readonly string[]).includes(rawStatus) ? (rawStatus as StatusScope) : '';
  const filter = (USER_FILTERS as readonly string[]).includes(raw.filter ?? '') ? (raw.filter as UserFilter) : undefined;
  if (filter === 'deleted') scope = 'deleted'; // the Deleted status and the deleted drill are linked
  const search = (raw.query ?? '').trim().toLowerCase().slice(0, 254);
  const list = JSON.stringify(['users', scope, filter ?? '', search]);

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

const inScope = (scope: StatusScope) => (user: Pick<UserRecord, 'status'>) => STATUSES_OF[scope].includes(user.status);

/** The shared tail of the lists read in rounds (drop-off, search): total and cursor. */
async function finish(
  list: string,
  rows: ListRecord[],
  shownBefore: number,
  more: { hasNext: boolean; next?: string; short: boolean },
  page: number,
  size: number,
  knownTotal: number | undefined,
  completion: Completion,
): Promise<UserListResponse> {
  const shown = shownBefore + rows.length;
  const total = more.hasNext ? Math.max(knownTotal ?? 0, shown + 1) : shown;
  const estimate = more.hasNext && (knownTotal === undefined || knownTotal < shown + 1);
  return {
    items: await toRows(rows, completion),
    total,
    total_is_estimate: estimate,
    has_next: more.hasNext,
    next_cursor: more.hasNext && more.next !== undefined ? await encodeCursor(list, { after: more.next, shown, total, estimate }) : null,
    page,
    page_size: size,
    ...(more.short ? { truncated: true } : {}),
  };
}

/** One round of a list read in rounds: the kept rows (with their completion) and where it stopped. */
type Round = { rows: ListRecord[]; completion?: { of: string[]; found: Completion }; hasNext: boolean; next?: string };

/**
 * Reads a page in rounds: `round(after, wanted)` returns the next kept rows and where it
 * stopped. A request makes at most SEARCH_ROUNDS reads per page; page N without a cursor walks
 * N−1 pages first. A known total (counters) is read alongside the first round, not after it.
 */
async function inRounds(
  list: string,
  raw: UserListQuery,
  page: number,
  size: number,
  round: (after: string | undefined, wanted: number) => Promise<Round>,
  knownTotal: () => Promise<number | undefined>,
): Promise<UserListResponse> {
  const cursor = await decodeCursor(list, raw.cursor);
  let shownBefore = cursor?.shown ?? 0;
  const cursorTotal = cursor?.total !== undefined && !cursor.estimate ? cursor.total : undefined;
  // the first page's total is carried by the cursor after it
  const early = !cursor ? knownTotal() : undefined;
  early?.catch(() => undefined); // awaited below when the page has more; a failure surfaces there
  const completion: Completion = new Map();
  const looked = new Set<string>(); // accounts whose enrollment was read already
  const onePage = async (after: string | undefined) => {
    const rows: ListRecord[] = [];
    let state: { hasNext: boolean; next?: string } = { hasNext: true, next: after };
    for (let attempt = 0; attempt < SEARCH_ROUNDS && rows.length < size && state.hasNext; attempt++) {
      const read = await round(state.next, size - rows.length);
      rows.push(...read.rows);
      read.completion?.of.forEach((id) => looked.add(id));
      read.completion?.found.forEach((value, id) => completion.set(id, value));
      state = { hasNext: read.hasNext, next: read.next };
    }
    return { rows, hasNext: state.hasNext, next: state.next, short: state.hasNext && rows.length < size };
  };
  let result = await onePage(cursor?.after);
  if (!cursor) {
    for (let walked = 1; walked < page; walked++) {
      shownBefore += result.rows.length;
      if (!result.hasNext) {
        result = { rows: [], hasNext: false, next: undefined, short: false };
        break;
      }
      result = await onePage(result.next);
    }
  }
  const known = result.hasNext ? (cursorTotal ?? (await (early ?? knownTotal()))) : undefined;
  const missing = result.rows.filter((row) => !looked.has(row.id)).map((row) => row.id);
  if (missing.length) (await completionOf(missing)).completion.forEach((value, id) => completion.set(id, value));
  return finish(list, result.rows, shownBefore, result, page, size, known, completion);
}

/**
 * Week-1 drop-off: enrollments (newest first) whose account is in the status scope. Each round
 * reads 1.5 pages of enrollments (a scope's filter skips some: one round mostly fills the page)
 * with their completion from the index (it holds the enrollment item), then their accounts.
 */
async function dropoffUsers(
  list: string,
  scope: StatusScope,
  raw: UserListQuery,
  page: number,
  size: number,
  now: Date,
): Promise<UserListResponse> {
  const cutoff = new Date(now.getTime() - WEEK1_WINDOW_MS).toISOString();
  const stream: Stream = { index: 'week1Pending', partition: WEEK1_PENDING_PK, to: `${cutoff}#~` };
  const keep = inScope(scope);
  return inRounds(
    list,
    raw,
    page,
    size,
    async (after, wanted) => {
      // only as many enrollments as the page needs are consumed; the cursor continues after them
      const read = await readMerged([stream], after, Math.ceil(size * 1.5), {
        maxRounds: 1,
        projection: ['user_id', 'percent_complete', INDEX.week1Pending.sortKey],
      });
      const users = new Map((await profilesOf(read.items.map((item) => String(item.user_id)))).map((user) => [user.id, user]));
      const rows: ListRecord[] = [];
      let consumed = 0;
      for (const item of read.items) {
        if (rows.length >= wanted) break;
        consumed++;
        const user = users.get(String(item.user_id));
        if (user && keep(user)) rows.push(user);
      }
      const hasNext = consumed < read.items.length || read.hasNext;
      return {
        rows,
        completion: { of: read.items.map((item) => String(item.user_id)), found: completionFrom(read.items) },
        hasNext,
        next: consumed ? String(read.items[consumed - 1][INDEX.week1Pending.sortKey]) : after,
      };
    },
    async () => (scope === '' ? week1DropoffCount(now) : undefined),
  );
}

/**
 * Search: the USERSEARCH items whose value starts with the text, in key order (value, then id).
 * The items carry what the search filters on (functions/lib/users.ts searchItems), so the Query's
 * FilterExpression keeps one item per account (the first of email, first name, last name that
 * matches), in the status scope, unverified or active since the cohort's first day when asked:
 * only candidates come back, and no account is read for a non-match. A round reads as many
 * search items as the page still needs divided by the share that passed so far (guessed low at
 * first: the items are small), at most SEARCH_ITEMS_PER_ROUND × (page_size + 1). Candidates are then checked on their accounts, read
 * with their enrollments in parallel: the account is the truth (an item written before it
 * carried the filter fields passes the filter and is checked here), and the week-1 drop-off,
 * which the enrollments decide, checks up to twice the page's candidates per round.
 */
async function searchUsers(
  list: string,
  search: string,
  scope: StatusScope,
  filter: UserFilter | undefined,
  raw: UserListQuery,
  page: number,
  size: number,
  now: Date,
): Promise<UserListResponse> {
  const partition = keys.userSearch(search, '', '').pk;
  const keep = inScope(scope);
  const since = filter === 'active7d' || filter === 'active30d' ? activeSince(filter === 'active7d' ? 7 : 30, now) : undefined;
  const cutoff = new Date(now.getTime() - WEEK1_WINDOW_MS).toISOString();
  // the drop-off cohort is decided on the enrollments: more candidates are checked per row
  const cohort = filter === 'week1_dropoff';
  const week1Field = INDEX.week1Pending.partitionKey;
  const filterOnItems = searchItemFilter(search, STATUSES_OF[scope], filter === 'unverified', since);
  // shares learnt per request: search items that are candidates, candidates in the cohort; the
  // first guess is low (an account's email and name items often both match; a filter passes fewer)
  let itemRate = filter === 'unverified' || since || (scope !== '' && scope !== 'all') ? 0.1 : 0.25;
  let cohortRate = 0.5;
  return inRounds(
    list,
    raw,
    page,
    size,
    async (after, wanted) => {
      // candidates to check: the page's rows (+1 to know whether more follow), more for a cohort
      const toCheck = cohort ? Math.min(2 * size + 2, Math.ceil(wanted / cohortRate) + 2) : wanted;
      const result = await db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ...filterOnItems,
          ExpressionAttributeValues: {
            ...filterOnItems.ExpressionAttributeValues,
            ':pk': partition,
            ':from': after ?? search,
            ':to': `${search}\uffff`,
          },
          ProjectionExpression: 'sk, user_id, field',
          Limit: Math.min(SEARCH_ITEMS_PER_ROUND * (size + 1), Math.ceil((toCheck + 1) / itemRate)),
        }),
      );
      const candidates = (result.Items ?? []).filter((item) => after === undefined || String(item.sk) > after);
      const scanned = result.ScannedCount ?? candidates.length;
      itemRate = Math.max(0.02, Math.min(1, candidates.length / Math.max(1, scanned)));
      const checked = candidates.slice(0, toCheck);
      // unique: an item written before `shadowed` existed can repeat an account
      const ids = [...new Set(checked.map((item) => String(item.user_id)))];
      const [profileList, enrolled] = await Promise.all([
        profilesOf(ids),
        completionOf(ids, filter === 'week1_dropoff' ? `,enrolled_at,${week1Field}` : ''),
      ]);
      const profiles = new Map(profileList.map((user) => [user.id, user]));
      const dropped = new Set(
        enrolled.enrollments
          .filter((e) => e[week1Field] === WEEK1_PENDING_PK && String(e.enrolled_at) <= cutoff)
          .map((e) => String(e.user_id)),
      );
      const rows: ListRecord[] = [];
      let consumed = 0;
      for (const item of checked) {
        if (rows.length >= wanted) break;
        consumed++;
        const user = profiles.get(String(item.user_id));
        if (!user || !keep(user)) continue;
        // shown once: through the first field (email, first name, last name) that matches
        if (SEARCH_FIELDS.find((field) => searchValue(user, field).startsWith(search)) !== item.field) continue;
        if (filter === 'unverified' && user.verified) continue;
        if (since && (user.last_active_day ?? '') < since) continue;
        if (filter === 'week1_dropoff' && !dropped.has(user.id)) continue;
        rows.push(user);
      }
      if (cohort && consumed) cohortRate = Math.max(0.1, Math.min(1, rows.length / consumed));
      // where the next round starts: after the last candidate used, else after everything read
      const allUsed = consumed === candidates.length;
      const lastRead = result.LastEvaluatedKey ? String(result.LastEvaluatedKey.sk) : undefined;
      const lastUsed = consumed ? String(candidates[consumed - 1].sk) : after;
      return {
        rows,
        completion: { of: ids, found: enrolled.completion },
        hasNext: !allUsed || lastRead !== undefined,
        next: allUsed ? (lastRead ?? lastUsed) : lastUsed,
      };
    },
    () => Promise.resolve(undefined),
  );
}

/**
 * The FilterExpression on search items: not shadowed by an earlier field for a text of this
 * length, in the status scope, unverified when asked, active since the cohort's first day. An
 * item written before these fields existed passes (attribute_not_exists) and is decided on its
 * account.
 */
function searchItemFilter(search: string, statuses: UserStatus[], unverified: boolean, activeSinceDay?: string) {
  const values: Record<string, unknown> = { ':length': search.length };
  statuses.forEach((status, index) => (values[`:status${index}`] = status));
  const inStatus = statuses.map((_, index) => `:status${index}`).join(', ');
  const parts = ['(attribute_not_exists(shadowed) OR shadowed < :length)', `(attribute_not_exists(#status) OR #status IN (${inStatus}))`];
  if (unverified) {
    values[':false'] = false;
    parts.push('(attribute_not_exists(verified) OR verified = :false)');
  }
  if (activeSinceDay) {
    // never active: no last_active_day, filtered out; an item from before the fields existed passes
    values[':since'] = activeSinceDay;
    parts.push('(attribute_not_exists(shadowed) OR last_active_day >= :since)');
  }
  return { FilterExpression: parts.join(' AND '), ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: values };
}
