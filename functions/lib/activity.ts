import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './db';
import { failedConditions, withWriteRetries } from './retry';
import { dayCounterUpdate, lastActiveDeltas } from './stats';
import { INDEX, indexKeys, keys, ttlIn } from './table';
import type { UserRecord } from './user-record';
import { searchItemKeys, type SearchField } from './users';

export const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const ACTIVITY_TTL_SECONDS = 400 * 24 * 3600;

/**
 * Records that a learner was active today (a login or a task save). Written at most once a day
 * per learner. It keeps, in the same transaction:
 *  - ACTIVITY#<day>/USER#<id>: who was active which day;
 *  - STATS#DAILYACTIVE/DAY#<day>#<shard>: how many distinct learners were active that day (the charts);
 *  - the user's `last_active_day` (+ its usersByActivity index keys, for the active cohorts);
 *  - the STATS#LASTACTIVE histogram (accounts per last-active day): active in the last N days =
 *    the sum of the last N days' buckets, a fixed-size read (docs/scale-writes.md);
 *  - the account's admin search items' `last_active_day` (functions/lib/users.ts searchItems), so
 *    the search filters the active cohorts on them. Each is updated only if it exists: a rename
 *    meanwhile (its keys moved) fails the condition and the account is read again; an account
 *    whose items are missing altogether is recorded without them after a second try.
 * The day counters are write-sharded (functions/lib/stats.ts): the login wave of a day spreads
 * over DAY_SHARDS items instead of one. Returns false when the learner was already recorded today.
 *
 * Callers that hold the account just read (the session user) pass it: its last_active_day saves
 * the read on this hot path (every task save). A stale value only fails the condition, and the
 * next try reads the item. Conflicts and throttling are retried with jitter (functions/lib/retry.ts);
 * when they outlast the retries the error goes up (503 `unavailable`): a count is never dropped silently.
 */
export async function recordActivity(
  account: string | (Pick<UserRecord, 'id' | 'last_active_day'> & Partial<Pick<UserRecord, 'status' | SearchField>>),
  now = new Date(),
): Promise<boolean> {
  const day = dayOf(now);
  const userId = typeof account === 'string' ? account : account.id;
  // without the status (the index partition) or the searched values (the search items' keys) the item is read
  let known: Record<string, unknown> | undefined =
    typeof account === 'string' || !account.status || typeof account.email !== 'string' ? undefined : account;
  let searchMisses = 0;
  // A lost race (the condition failed) reads again; each read either ends the loop or sees a
  // newer last_active_day, so a few tries suffice.
  for (let race = 0; race < 5; race++) {
    const current =
      known ??
      (
        await db().send(
          new GetCommand({
            TableName: tableName(),
            Key: keys.user(userId),
            ProjectionExpression: 'last_active_day, #status, email, first_name, last_name',
            ExpressionAttributeNames: { '#status': 'status' },
            ConsistentRead: true,
          }),
        )
      ).Item;
    known = undefined;
    if (!current) return false;
    const previous = current.last_active_day as string | undefined;
    if (previous && previous >= day) return false;
    const status = String(current.status ?? 'active');
    const writes = activityWrites(userId, status, day, previous, now);
    const search = searchMisses < 2 ? searchItemUpdates(userId, current, day) : [];
    try {
      await withWriteRetries(() => db().send(new TransactWriteCommand({ TransactItems: [...writes, ...search] })));
      return true;
    } catch (error) {
      const failed = failedConditions(error);
      // Another request recorded the same learner concurrently (or the account is gone): read again and decide.
      if (failed.includes(0)) continue;
      // a search item is gone: renamed meanwhile (read again), or missing altogether (go on without)
      if (failed.some((index) => index >= writes.length)) {
        searchMisses++;
        continue;
      }
      throw error;
    }
  }
  return false;
}

/** `last_active_day` on the account's search items, each only if it exists (never a stub item). */
function searchItemUpdates(userId: string, account: Record<string, unknown>, day: string) {
  const text = (name: SearchField) => (typeof account[name] === 'string' ? account[name] : '');
  const searched = { id: userId, email: text('email'), first_name: text('first_name'), last_name: text('last_name') };
  return searchItemKeys(searched).map((key) => ({
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET last_active_day = :day',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':day': day },
    },
  }));
}

function activityWrites(userId: string, status: string, day: string, previous: string | undefined, now: Date) {
  const activeKeys = indexKeys.usersByActivity({ id: userId, status }, day);
  return [
    {
      Update: {
        TableName: tableName(),
        Key: keys.user(userId),
        UpdateExpression: 'SET last_active_day = :day, #activePk = :activePk, #activeSk = :activeSk',
        // attribute_exists(pk): never create a stub item for an account deleted meanwhile;
        // the status condition keeps the index partition (the status) current under a race
        ConditionExpression: previous
          ? 'attribute_exists(pk) AND #status = :status AND last_active_day = :previous'
          : 'attribute_exists(pk) AND #status = :status AND attribute_not_exists(last_active_day)',
        ExpressionAttributeNames: {
          '#status': 'status',
          '#activePk': INDEX.usersByActivity.partitionKey,
          '#activeSk': INDEX.usersByActivity.sortKey,
        },
        ExpressionAttributeValues: {
          ':day': day,
          ':status': status,
          ':activePk': activeKeys[INDEX.usersByActivity.partitionKey],
          ':activeSk': activeKeys[INDEX.usersByActivity.sortKey],
          ...(previous ? { ':previous': previous } : {}),
        },
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.activity(day, userId),
          type: 'activity',
          user_id: userId,
          day,
          expires_at: ttlIn(ACTIVITY_TTL_SECONDS, now.getTime()),
        },
      },
    },
    // distinct learners active that day (the admin charts' series)
    dayCounterUpdate('DAILYACTIVE', day, { count: 1 })!,
    // accounts per last-active day, with the locked / deleted among them (stats.ts lastActiveDeltas)
    dayCounterUpdate('LASTACTIVE', day, lastActiveDeltas(status, 1))!,
    ...(previous ? [dayCounterUpdate('LASTACTIVE', previous, lastActiveDeltas(status, -1))!] : []),
  ];
}
