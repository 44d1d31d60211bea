import { program } from '../program/content';
import { dayOf } from '../lib/activity';
import { batchGetItems } from '../lib/batch-items';
import { keys, USER_LIST_FIELDS } from '../lib/table';
import type { UserRecord, UserStatus } from '../lib/user-record';
import type { AdminUserListItem } from '../../shared/admin-types';
import { decodeCursor, encodeCursor, type ListPage } from './paging';

/**
 * What the users list's readers share (functions/admin/user-list.ts, user-search.ts): the query,
 * the status scopes, a page's rows with their completion, and the reading in rounds that the
 * lists without a ready index range (search, week-1 drop-off) use.
 */
export const USER_FILTERS = ['active7d', 'active30d', 'unverified', 'week1_dropoff', 'deleted'] as const;
export type UserFilter = (typeof USER_FILTERS)[number];
export const STATUS_SCOPES = ['', 'all', 'deleted', 'active', 'locked'] as const;
export type StatusScope = (typeof STATUS_SCOPES)[number];
/** Rounds of a list read in rounds (search, drop-off), per request at most. */
const SEARCH_ROUNDS = 3;

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
  /** a module id: the learners the funnel counts in progress there (functions/admin/stalled-users.ts) */
  stalled_at?: string;
}

const DAY_MS = 24 * 3600 * 1000;
export const activeSince = (days: number, now: Date) => dayOf(new Date(now.getTime() - (days - 1) * DAY_MS));

export const STATUSES_OF: Record<StatusScope, UserStatus[]> = {
  '': ['active', 'locked'],
  all: ['active', 'locked', 'deleted'],
  deleted: ['deleted'],
  active: ['active'],
  locked: ['locked'],
};

export type Completion = Map<string, { pct: number; count: number }>;

/** Completion by account, from the enrollment items found (an account without one is absent). */
export const completionFrom = (enrollments: Record<string, unknown>[]): Completion =>
  new Map(enrollments.map((item) => [String(item.user_id), { pct: Number(item.percent_complete ?? 0), count: 1 }]));

export async function completionOf(
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

export type ListRecord = Pick<UserRecord, (typeof USER_LIST_FIELDS)[number]>;

/** The rows of a page; `known` = completion already read for these accounts (else one BatchGet). */
export async function toRows(users: ListRecord[], known?: Completion): Promise<UserListItem[]> {
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
export const profilesOf = async (userIds: string[]) => {
  const found = (await batchGetItems(
    userIds.map((id) => keys.user(id)),
    { projection: USER_LIST_FIELDS },
  )) as unknown as ListRecord[];
  const byId = new Map(found.map((user) => [user.id, user]));
  return userIds.map((id) => byId.get(id)).filter((user): user is ListRecord => Boolean(user));
};

export const inScope = (scope: StatusScope) => (user: Pick<UserRecord, 'status'>) => STATUSES_OF[scope].includes(user.status);

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
export type Round = { rows: ListRecord[]; completion?: { of: string[]; found: Completion }; hasNext: boolean; next?: string };

/**
 * Reads a page in rounds: `round(after, wanted)` returns the next kept rows and where it
 * stopped. A request makes at most SEARCH_ROUNDS reads per page; page N without a cursor walks
 * N−1 pages first. A known total (counters) is read alongside the first round, not after it.
 */
export async function inRounds(
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
