import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './db';
import { withWriteRetries } from './retry';
import { INDEX, indexKeys, keys } from './table';
import type { UserRecord } from './user-record';
import { currentDate } from './clock';

export const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Records that a learner was active today (a login or a task save): one conditional UpdateItem
 * of the account, its `last_active_day` and usersByActivity index keys (the active cohorts),
 * moved forward at most once a day. Everything that counts the activity follows from that change
 * off the request path (docs/scale-writes.md "Activity off the request path"): the table's
 * stream carries the account's old and new `last_active_day` to the activity aggregator
 * (functions/lib/activity-aggregation.ts), which writes the day's activity marker, the
 * DAILYACTIVE and LASTACTIVE day counters and the search items' `last_active_day`. Returns false
 * when the learner was already recorded today.
 *
 * Callers that hold the account just read (the session user) pass it: its last_active_day saves
 * the read on this hot path. A stale value only fails the condition, and the next try reads the
 * item. Throttling is retried with jitter (functions/lib/retry.ts); when it outlasts the retries
 * the error goes up (503).
 */
export async function recordActivity(account: ActiveAccount, now = currentDate()): Promise<boolean> {
  return (await recordActivitySetting(account, now, {})).newDay;
}

type ActiveAccount = string | (Pick<UserRecord, 'id' | 'last_active_day'> & Partial<Pick<UserRecord, 'status'>>);

/**
 * `recordActivity` with other attributes of the account joined to the same write (a sign-in's
 * `last_login_at` and known browsers), written whether or not the day was new. Answers, besides
 * whether the day was new, the account's values of those attributes as the write replaced them
 * (`before`: ReturnValues UPDATED_OLD; empty when the account is gone).
 */
export async function recordActivitySetting(
  account: ActiveAccount,
  now: Date,
  alsoSet: Record<string, unknown>,
): Promise<{ newDay: boolean; before: Record<string, unknown> }> {
  const day = dayOf(now);
  const userId = typeof account === 'string' ? account : account.id;
  // without the status (the index partition) the item is read
  let known: Record<string, unknown> | undefined = typeof account === 'string' || !account.status ? undefined : account;
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
            ProjectionExpression: 'last_active_day, #status',
            ExpressionAttributeNames: { '#status': 'status' },
            ConsistentRead: true,
          }),
        )
      ).Item;
    known = undefined;
    if (!current) return { newDay: false, before: {} };
    const previous = current.last_active_day as string | undefined;
    const newDay = !previous || previous < day;
    if (!newDay && !Object.keys(alsoSet).length) return { newDay: false, before: {} };
    try {
      const written = await withWriteRetries(() =>
        db().send(
          new UpdateCommand({
            ...activityUpdate(userId, String(current.status ?? 'active'), newDay ? day : undefined, previous, alsoSet),
            ReturnValues: 'UPDATED_OLD',
          }),
        ),
      );
      return { newDay, before: written.Attributes ?? {} };
    } catch (error) {
      // another request recorded the same learner (or changed the status) meanwhile, or the account is gone: read again and decide
      if (error instanceof ConditionalCheckFailedException) continue;
      throw error;
    }
  }
  return { newDay: false, before: {} };
}

/** The account's update: the new day with its index keys (when `day` is given) and `alsoSet`. */
function activityUpdate(
  userId: string,
  status: string,
  day: string | undefined,
  previous: string | undefined,
  alsoSet: Record<string, unknown>,
) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(alsoSet).map(([field, value], index) => {
    names[`#also${index}`] = field;
    values[`:also${index}`] = value;
    return `#also${index} = :also${index}`;
  });
  // attribute_exists(pk): never create a stub item for an account deleted meanwhile
  let condition = 'attribute_exists(pk)';
  if (day) {
    const activeKeys = indexKeys.usersByActivity({ id: userId, status }, day);
    Object.assign(names, {
      '#status': 'status',
      '#activePk': INDEX.usersByActivity.partitionKey,
      '#activeSk': INDEX.usersByActivity.sortKey,
    });
    Object.assign(values, {
      ':day': day,
      ':status': status,
      ':activePk': activeKeys[INDEX.usersByActivity.partitionKey],
      ':activeSk': activeKeys[INDEX.usersByActivity.sortKey],
      ...(previous ? { ':previous': previous } : {}),
    });
    sets.push('last_active_day = :day', '#activePk = :activePk', '#activeSk = :activeSk');
    // the status condition keeps the index partition (the status) current under a race; the
    // day condition moves last_active_day forward once (the aggregator counts each move once)
    condition += ` AND #status = :status AND ${previous ? 'last_active_day = :previous' : 'attribute_not_exists(last_active_day)'}`;
  }
  return {
    TableName: tableName(),
    Key: keys.user(userId),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
