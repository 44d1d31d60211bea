import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './db';
import { keys } from './table';

/**
 * Aggregates kept by writes (DESIGN §4): atomic ADD counters, write-sharded so a burst of
 * registrations does not hammer one item. The admin summary reads the fixed set of shards.
 */
export const STATS_SHARDS = 10;

export type StatsField =
  | 'users_total' // accounts not deleted
  | 'users_verified' // verified accounts not deleted
  | 'enrollments_total'
  | 'enrollment_percent_sum' // sum of every enrollment's percent_complete (for the average)
  | 'modules_completed_total' // completed modules across all enrollments
  | 'modules_total'; // modules across all enrollments

type TransactItem = { Update: { TableName: string; Key: Record<string, string>; UpdateExpression: string; ExpressionAttributeValues: Record<string, number>; ExpressionAttributeNames: Record<string, string> } };

/** A TransactWriteItems entry that adds the deltas to one random shard (in the same transaction as the write it counts). */
export function statsUpdate(deltas: Partial<Record<StatsField, number>>): TransactItem | undefined {
  const entries = Object.entries(deltas).filter(([, delta]) => delta);
  if (!entries.length) return undefined;
  const shard = Math.floor(Math.random() * STATS_SHARDS);
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
      Key: keys.statsShard(shard),
      UpdateExpression: `ADD ${parts.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** Sums every shard: a fixed number of reads whatever the number of users. */
export async function readStats(): Promise<Record<StatsField, number>> {
  const result = await db().send(
    new BatchGetCommand({
      RequestItems: {
        [tableName()]: { Keys: Array.from({ length: STATS_SHARDS }, (_, shard) => keys.statsShard(shard)) },
      },
    }),
  );
  const totals: Record<StatsField, number> = {
    users_total: 0,
    users_verified: 0,
    enrollments_total: 0,
    enrollment_percent_sum: 0,
    modules_completed_total: 0,
    modules_total: 0,
  };
  for (const item of result.Responses?.[tableName()] ?? []) {
    for (const field of Object.keys(totals) as StatsField[]) totals[field] += Number(item[field] ?? 0);
  }
  return totals;
}
