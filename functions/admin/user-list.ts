import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { USERS_DEFAULT_PAGE_SIZE } from '../../shared/constants';
import { program } from '../program/content';
import { dayOf } from '../lib/activity';
import { db, tableName } from '../lib/db';
import { readStats, WEEK1_PENDING_PK, WEEK1_WINDOW_MS } from '../lib/stats';
import { keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { batchGet } from './batch-get';
import { pageParams, queryCount, queryPage } from './paging';

/**
 * `GET /api/admin/users` (SPEC §2 "Admin users"). Every list comes from an index, newest
 * accounts first, with page N costing N pages of reads:
 *   status ''/all/deleted/active/locked → gsi2 USERS#LIVE, gsi1 USERS, gsi2 USERS#DELETED, gsi3 USERS#STATUS#<s>
 *   filter unverified → gsi4 USERS#UNVERIFIED; active7d/active30d → gsi5 USERS#ACTIVE (ordered by
 *   last active day, most recent first); week1_dropoff → gsi4 WEEK1#PENDING on enrollments older
 *   than 7 days (newest enrollments first); deleted → as status deleted.
 * Totals: the per-status counters (fixed cost) for plain lists; a COUNT of the index matches for
 * cohorts. Search (`query`): a case-insensitive prefix of email, first or last name, read from the
 * USERSEARCH items — cost bounded by the matches, at most MAX_SEARCH_MATCHES of them.
 */
export const USER_FILTERS = ['active7d', 'active30d', 'unverified', 'week1_dropoff', 'deleted'] as const;
export type UserFilter = (typeof USER_FILTERS)[number];
export const STATUS_SCOPES = ['', 'all', 'deleted', 'active', 'locked'] as const;
export type StatusScope = (typeof STATUS_SCOPES)[number];
export const MAX_SEARCH_MATCHES = 500;

export interface UserListItem {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  status: UserRecord['status'];
  is_locked: boolean;
  created_at: string;
  last_login_at: string | null;
  role: UserRecord['role'];
  completion_pct: number;
  enrollments: number;
}

export interface UserListResponse {
  items: UserListItem[];
  total: number;
  has_next: boolean;
  page: number;
  page_size: number;
  /** Search only: more than MAX_SEARCH_MATCHES accounts matched; refine the search. */
  truncated?: boolean;
}

export interface UserListQuery {
  page?: string;
  page_size?: string;
  query?: string;
  filter?: string;
  status?: string;
}

const inScope = (scope: StatusScope) => (user: Pick<UserRecord, 'status'>) =>
  scope === 'all' ? true : scope === '' ? user.status !== 'deleted' : user.status === scope;

const DAY_MS = 24 * 3600 * 1000;
const activeSince = (days: number, now: Date) => dayOf(new Date(now.getTime() - (days - 1) * DAY_MS));

function indexQuery(index: string, pk: string): QueryCommandInput {
  const n = index.replace('gsi', '');
  return {
    TableName: tableName(),
    IndexName: index,
    KeyConditionExpression: `gsi${n}pk = :pk`,
    ExpressionAttributeValues: { ':pk': pk },
    ScanIndexForward: false,
  };
}

function rangeQuery(index: string, pk: string, condition: string, values: Record<string, unknown>): QueryCommandInput {
  const n = index.replace('gsi', '');
  return {
    TableName: tableName(),
    IndexName: index,
    KeyConditionExpression: `gsi${n}pk = :pk AND gsi${n}sk ${condition}`,
    ExpressionAttributeValues: { ':pk': pk, ...values },
    ScanIndexForward: false,
  };
}

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

/** The `status` condition as a FilterExpression, for COUNTs of cohorts. */
function statusFilter(scope: StatusScope): Partial<QueryCommandInput> & { values: Record<string, unknown> } {
  if (scope === 'all') return { values: {} };
  if (scope === '') return { FilterExpression: '#status <> :deleted', ExpressionAttributeNames: { '#status': 'status' }, values: { ':deleted': 'deleted' } };
  return { FilterExpression: '#status = :scope', ExpressionAttributeNames: { '#status': 'status' }, values: { ':scope': scope } };
}

async function completionOf(userIds: string[]): Promise<Map<string, { pct: number; count: number }>> {
  const programId = program().id;
  const found = await batchGet(
    userIds.map((id) => keys.enrollment(id, programId)),
    'user_id,percent_complete',
  );
  const byUser = new Map<string, { pct: number; count: number }>();
  for (const item of found) byUser.set(String(item.user_id), { pct: Number(item.percent_complete ?? 0), count: 1 });
  return byUser;
}

async function toRows(users: UserRecord[]): Promise<UserListItem[]> {
  const completion = users.length ? await completionOf(users.map((user) => user.id)) : new Map();
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
    completion_pct: completion.get(user.id)?.pct ?? 0,
    enrollments: completion.get(user.id)?.count ?? 0,
  }));
}

const profilesOf = async (userIds: string[]) => {
  const found = (await batchGet(userIds.map((id) => keys.user(id)))) as unknown as UserRecord[];
  const byId = new Map(found.map((user) => [user.id, user]));
  return userIds.map((id) => byId.get(id)).filter((user): user is UserRecord => Boolean(user));
};

export async function listUsers(raw: UserListQuery, now = new Date()): Promise<UserListResponse> {
  const { page, size } = pageParams(raw, USERS_DEFAULT_PAGE_SIZE);
  const rawStatus = (raw.status ?? '').trim();
  let scope: StatusScope = (STATUS_SCOPES as readonly string[]).includes(rawStatus) ? (rawStatus as StatusScope) : '';
  const filter = (USER_FILTERS as readonly string[]).includes(raw.filter ?? '') ? (raw.filter as UserFilter) : undefined;
  if (filter === 'deleted') scope = 'deleted'; // SPEC §4: the Deleted status and the deleted drill are linked
  const search = (raw.query ?? '').trim().toLowerCase().slice(0, 254);
  const base = { page, page_size: size };

  if (search) return { ...base, ...(await searchUsers(search, scope, filter, page, size, now)) };

  const keep = inScope(scope);
  if (filter === 'active7d' || filter === 'active30d') {
    const input = rangeQuery('gsi5', 'USERS#ACTIVE', '>= :since', { ':since': activeSince(filter === 'active7d' ? 7 : 30, now) });
    const [{ items, hasMore }, total] = await Promise.all([queryPage<UserRecord>(input, page, size, keep as (item: Record<string, unknown>) => boolean), countWithStatus(input, scope)]);
    return { ...base, items: await toRows(items), total, has_next: hasMore };
  }
  if (filter === 'unverified') {
    const input = indexQuery('gsi4', 'USERS#UNVERIFIED');
    const [{ items, hasMore }, total] = await Promise.all([queryPage<UserRecord>(input, page, size, keep as (item: Record<string, unknown>) => boolean), countWithStatus(input, scope)]);
    return { ...base, items: await toRows(items), total, has_next: hasMore };
  }
  if (filter === 'week1_dropoff') {
    // enrollments at least 7 days old whose week 1 was not completed within 7 days
    const cutoff = new Date(now.getTime() - WEEK1_WINDOW_MS).toISOString();
    const input = rangeQuery('gsi4', WEEK1_PENDING_PK, '<= :cutoff', { ':cutoff': `${cutoff}#~` });
    const [{ items, hasMore }, total] = await Promise.all([queryPage(input, page, size), queryCount(input)]);
    const users = await profilesOf(items.map((item) => String(item.user_id)));
    return { ...base, items: await toRows(users.filter(keep)), total, has_next: hasMore };
  }
  const input =
    scope === 'all'
      ? indexQuery('gsi1', 'USERS')
      : scope === ''
        ? indexQuery('gsi2', 'USERS#LIVE')
        : scope === 'deleted'
          ? indexQuery('gsi2', 'USERS#DELETED')
          : indexQuery('gsi3', `USERS#STATUS#${scope}`);
  const [{ items, hasMore }, total] = await Promise.all([queryPage<UserRecord>(input, page, size), scopeTotal(scope)]);
  return { ...base, items: await toRows(items), total, has_next: hasMore };
}

async function countWithStatus(input: QueryCommandInput, scope: StatusScope): Promise<number> {
  const { values, ...filter } = statusFilter(scope);
  return queryCount({ ...input, ...filter, ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ...values } });
}

async function searchUsers(search: string, scope: StatusScope, filter: UserFilter | undefined, page: number, size: number, now: Date) {
  const matches = new Map<string, string>(); // user id → created_at
  let startKey: Record<string, unknown> | undefined;
  let truncated = false;
  do {
    const result = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': `USERSEARCH#${search.slice(0, 1)}`, ':prefix': search },
        ProjectionExpression: 'user_id, created_at',
        ExclusiveStartKey: startKey,
        Limit: MAX_SEARCH_MATCHES * 3,
      }),
    );
    for (const item of result.Items ?? []) matches.set(String(item.user_id), String(item.created_at));
    startKey = result.LastEvaluatedKey;
    if (matches.size >= MAX_SEARCH_MATCHES) truncated = Boolean(startKey) || matches.size > MAX_SEARCH_MATCHES;
  } while (startKey && matches.size < MAX_SEARCH_MATCHES);
  const ordered = [...matches.entries()]
    .sort((a, b) => (a[1] === b[1] ? b[0].localeCompare(a[0]) : b[1].localeCompare(a[1])))
    .slice(0, MAX_SEARCH_MATCHES)
    .map(([id]) => id);
  let users = (await profilesOf(ordered)).filter(inScope(scope));
  if (filter === 'active7d' || filter === 'active30d') {
    const since = activeSince(filter === 'active7d' ? 7 : 30, now);
    users = users.filter((user) => ((user as UserRecord & { last_active_day?: string }).last_active_day ?? '') >= since);
  } else if (filter === 'unverified') {
    users = users.filter((user) => !user.verified);
  } else if (filter === 'week1_dropoff') {
    const cutoff = new Date(now.getTime() - WEEK1_WINDOW_MS).toISOString();
    const programId = program().id;
    const enrollments = await batchGet(users.map((user) => keys.enrollment(user.id, programId)), 'user_id,gsi4pk,enrolled_at');
    const dropped = new Set(enrollments.filter((e) => e.gsi4pk === WEEK1_PENDING_PK && String(e.enrolled_at) <= cutoff).map((e) => String(e.user_id)));
    users = users.filter((user) => dropped.has(user.id));
  }
  const pageUsers = users.slice((page - 1) * size, page * size);
  return { items: await toRows(pageUsers), total: users.length, has_next: users.length > page * size, ...(truncated ? { truncated } : {}) };
}
