import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './db';
import { withWriteRetries } from './retry';
import { conflict } from './errors';
import { type StatsField, statsUpdate, unverifiedDeltas } from './stats';
import { indexKeys, keys } from './table';
import type { Role, UserRecord, UserStatus } from './user-record';
import { nowIso } from './clock';

/**
 * Index keys of a user item, derived from its state; every write of a user item sets them so
 * the admin lists and cohorts are key ranges of sparse GSIs (functions/lib/table.ts), never a
 * Scan. Each list index is partitioned by status, so every status × cohort is a key range:
 *   usersByStatus    <status> / <created_at>#<id>         every account, newest first
 *   usersUnverified  <status> / <created_at>#<id>         only while unverified
 *   usersByActivity  <status> / <last active day>#<id>    once active (recordActivity, functions/lib/activity.ts)
 * They project only the list fields (USER_LIST_FIELDS): no password hash in any index.
 */
export function userIndexKeys(user: Pick<UserRecord, 'id' | 'created_at' | 'status' | 'verified' | 'last_active_day' | 'deleted_at'>) {
  return {
    ...indexKeys.usersByStatus(user),
    // soft-deleted: queued for erasure after the retention period (functions/admin/erasure.ts)
    ...(user.status === 'deleted' && user.deleted_at ? indexKeys.erasureDue(user.id, user.deleted_at) : {}),
    ...(user.verified ? {} : indexKeys.usersUnverified(user)),
    ...(user.last_active_day ? indexKeys.usersByActivity(user, user.last_active_day) : {}),
  };
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export type SearchField = 'email' | 'first_name' | 'last_name';
export const SEARCH_FIELDS: readonly SearchField[] = ['email', 'first_name', 'last_name'];

/** The lower-cased value the admin search matches a prefix of. */
export const searchValue = (user: Pick<UserRecord, SearchField>, field: SearchField) =>
  (field === 'email' ? user.email : user[field]).trim().toLowerCase();

/** Length of the longest common prefix of two strings (in UTF-16 units, as `startsWith` compares). */
const commonPrefixLength = (a: string, b: string) => {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
};

export type SearchItemSource = Pick<UserRecord, 'id' | 'created_at' | 'status' | 'verified' | SearchField> &
  Partial<Pick<UserRecord, 'last_active_day'>>;

/**
 * The admin prefix-search items of an account (USERSEARCH#<first char> / <value>#<id>#<field>),
 * written with the account, rewritten when a searched field, the status or the verification
 * changes (searchItemWrites), deleted on hard delete. `created_at` is immutable, so results can
 * be ordered newest first without reading profiles. Each item also carries what the search
 * filters on, so a Query's FilterExpression drops non-matching accounts before any is read
 * (docs/scale-reads.md "Search"):
 *   status, verified  copies of the account's;
 *   last_active_day   a copy of the account's once it was active (the activity write keeps it:
 *                     functions/lib/activity.ts), for the active7d / active30d cohorts;
 *   shadowed          the longest prefix this value shares with an earlier field's value (email,
 *                     then first name, then last name): for a search text of length n that this
 *                     value starts with, an earlier field also matches exactly when n ≤ shadowed,
 *                     and the account is shown through that field instead (one row per account).
 */
export function searchItems(user: SearchItemSource) {
  const values = SEARCH_FIELDS.map((field) => searchValue(user, field));
  return SEARCH_FIELDS.flatMap((field, index) => {
    const value = values[index];
    if (!value) return [];
    const earlier = values.slice(0, index).filter(Boolean);
    return [
      {
        ...keys.userSearch(value, user.id, field),
        type: 'usersearch',
        user_id: user.id,
        field,
        created_at: user.created_at,
        status: user.status,
        verified: Boolean(user.verified),
        shadowed: Math.max(0, ...earlier.map((other) => commonPrefixLength(other, value))),
        ...(user.last_active_day ? { last_active_day: user.last_active_day } : {}),
      },
    ];
  });
}

/** The keys of an account's search items (no value: no item). */
export const searchItemKeys = (user: Pick<UserRecord, 'id' | SearchField>) =>
  SEARCH_FIELDS.flatMap((field) => {
    const value = searchValue(user, field);
    return value ? [keys.userSearch(value, user.id, field)] : [];
  });

/**
 * The transaction items that take an account's search items from `before` to `after`: items of
 * values that went are deleted, new or changed ones are put (a status or verification change
 * rewrites all of them, a rename only the renamed field's). Empty when nothing searched changed.
 */
export function searchItemWrites(before: SearchItemSource, after: SearchItemSource) {
  const old = new Map(searchItems(before).map((item) => [item.sk, item]));
  const next = searchItems(after);
  const kept = new Set(next.map((item) => item.sk));
  const same = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    Object.keys(b).every((name) => a[name] === b[name]) && Object.keys(a).length === Object.keys(b).length;
  return [
    ...[...old.values()]
      .filter((item) => !kept.has(item.sk))
      .map((item) => ({ Delete: { TableName: tableName(), Key: { pk: item.pk, sk: item.sk } } })),
    ...next
      .filter((item) => {
        const was = old.get(item.sk);
        return !was || !same(was, item);
      })
      .map((item) => ({ Put: { TableName: tableName(), Item: item } })),
  ];
}

export async function getUserById(userId: string, consistent = true): Promise<UserRecord | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(userId), ConsistentRead: consistent }));
  return result.Item as UserRecord | undefined;
}

/** The id of the account that owns `email` (its email guard), if any. */
export async function emailOwnerId(email: string): Promise<string | undefined> {
  const guard = await db().send(new GetCommand({ TableName: tableName(), Key: keys.email(email), ConsistentRead: true }));
  return guard.Item?.user_id as string | undefined;
}

export async function getUserByEmail(email: string): Promise<UserRecord | undefined> {
  const userId = await emailOwnerId(email);
  return userId ? getUserById(userId) : undefined;
}

export interface NewUser {
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  role?: Role;
  verified?: boolean;
  status?: UserStatus;
  /** IANA zone of the learner's reminders (validated by the caller); absent reads as UTC. */
  time_zone?: string;
}

/** A new account's record as `insertUser` stores it (not yet written). */
export function newUserRecord(input: NewUser, now = nowIso()): UserRecord {
  return {
    id: randomUUID(),
    email: input.email.trim(),
    email_lower: normalizeEmail(input.email),
    first_name: input.first_name.trim(),
    last_name: input.last_name.trim(),
    password_hash: input.password_hash,
    role: input.role ?? 'learner',
    verified: input.verified ?? false,
    status: input.status ?? 'active',
    is_locked: false,
    session_version: 0,
    reminder_frequency: 'daily',
    ...(input.time_zone ? { time_zone: input.time_zone } : {}),
    created_at: now,
    updated_at: now,
    version: 1,
  };
}

/** The items a new account consists of: the account, its email guard and its search items. */
export const newUserItems = (user: UserRecord) => ({
  // an empty map of known browsers: the first sign-in has nothing to compare with (functions/accounts/known-browsers.ts)
  account: { ...keys.user(user.id), type: 'user', ...userIndexKeys(user), ...user, known_browsers: {} },
  emailGuard: { ...keys.email(user.email), type: 'email', user_id: user.id },
  search: searchItems(user),
});

/** What an account adds to the summary counters (a new one; the reconciliation sums it over every account). */
export const newUserCounts = (user: Pick<UserRecord, 'status' | 'verified'>): Partial<Record<StatsField, number>> => ({
  ...(user.status === 'deleted'
    ? { users_deleted: 1 }
    : { users_total: 1, users_verified: user.verified ? 1 : 0, users_locked: user.status === 'locked' ? 1 : 0 }),
  ...unverifiedDeltas(undefined, user),
});

/**
 * Creates the account and its email guard in one transaction: one account per email
 * (case-insensitive) even under concurrent requests. Throws 409 `already_registered`.
 */
export async function insertUser(
  input: NewUser,
  extraWrites: NonNullable<TransactWriteCommand['input']['TransactItems']> = [],
): Promise<UserRecord> {
  const user = newUserRecord(input);
  const items = newUserItems(user);
  try {
    // A registration wave conflicts on the counter shards: retried with jitter (functions/lib/retry.ts).
    await withWriteRetries(() =>
      db().send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName(), Item: items.account, ConditionExpression: 'attribute_not_exists(pk)' } },
            { Put: { TableName: tableName(), Item: items.emailGuard, ConditionExpression: 'attribute_not_exists(pk)' } },
            statsUpdate(newUserCounts(user))!,
            ...items.search.map((item) => ({ Put: { TableName: tableName(), Item: item } })),
            ...extraWrites,
          ],
        }),
      ),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException && error.CancellationReasons?.[1]?.Code === 'ConditionalCheckFailed') {
      throw conflict('already_registered');
    }
    throw error;
  }
  return user;
}
