import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type AccountAction, assertAccepts, statusCondition } from '../lib/account-states';
import { db, tableName } from '../lib/db';
import { withWriteRetries } from '../lib/retry';
import { notFound } from '../lib/errors';
import { keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { getUserById } from '../lib/users';
import { nowIso } from '../lib/clock';

export type TransactItem = NonNullable<TransactWriteCommand['input']['TransactItems']>[number];

export interface UserChange<Result> {
  /** Attributes to SET on the user item (only the changed ones). */
  set?: Record<string, unknown>;
  remove?: string[];
  /** Other items of the same transaction (stats, audit, email guard…). */
  extra?: TransactItem[];
  /** Index in `extra` whose condition failure means a known refusal, and the error to throw. */
  onExtraConflict?: { index: number; error: Error };
  result: Result;
}

const MAX_ATTEMPTS = 4;

/**
 * Read–decide–write on one account with optimistic concurrency: the write is conditioned on the
 * `version` read, so two admins editing at once never overwrite each other; the loser re-reads
 * and decides again (its refusal codes then reflect the winner's change). Only the attributes in
 * `set` are written. `action` names the statuses the change accepts (functions/lib/account-states.ts):
 * another status is refused before `decide` (409), and the write's condition holds them too, so a
 * change racing the start of a purge never lands on an account being erased.
 */
export async function mutateUser<Result>(
  userId: string,
  action: AccountAction,
  decide: (user: UserRecord) => UserChange<Result> | Promise<UserChange<Result>>,
): Promise<Result> {
  const accepted = statusCondition(action);
  for (let attempt = 1; ; attempt++) {
    const user = await getUserById(userId);
    if (!user) throw notFound();
    assertAccepts(action, user);
    const change = await decide(user);
    const names: Record<string, string> = { '#version': 'version', ...accepted.names };
    const values: Record<string, unknown> = { ':one': 1, ':now': nowIso(), ...accepted.values };
    if (user.version !== undefined) values[':version'] = user.version;
    // the last-active histogram moves a status change within this day (stats.ts
    // lastActiveStatusMove): an activity that moved the account to another day meanwhile (it
    // does not touch the version) fails the condition, and the change is decided again
    if (user.last_active_day !== undefined) values[':lastActive'] = user.last_active_day;
    const unchanged = `${user.version === undefined ? 'attribute_not_exists(#version)' : '#version = :version'} AND ${
      user.last_active_day === undefined ? 'attribute_not_exists(last_active_day)' : 'last_active_day = :lastActive'
    } AND ${accepted.expression}`;
    const sets = ['updated_at = :now'];
    Object.entries(change.set ?? {}).forEach(([name, value], index) => {
      names[`#s${index}`] = name;
      values[`:s${index}`] = value;
      sets.push(`#s${index} = :s${index}`);
    });
    const removes = (change.remove ?? []).map((name, index) => {
      names[`#r${index}`] = name;
      return `#r${index}`;
    });
    const update = `SET ${sets.join(', ')} ADD #version :one${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`;
    try {
      await withWriteRetries(() =>
        db().send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName(),
                  Key: keys.user(userId),
                  UpdateExpression: update,
                  ConditionExpression: unchanged,
                  ExpressionAttributeNames: names,
                  ExpressionAttributeValues: values,
                },
              },
              ...(change.extra ?? []),
            ],
          }),
        ),
      );
      return change.result;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const known = change.onExtraConflict;
      if (known && reasons[known.index + 1]?.Code === 'ConditionalCheckFailed') throw known.error;
      if (reasons[0]?.Code === 'ConditionalCheckFailed' && attempt < MAX_ATTEMPTS) continue; // lost a race: decide again
      throw error;
    }
  }
}
