import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db';
import { readStats, type StatsField } from '../lib/stats';
import { INDEX, indexPartition, keys } from '../lib/table';

/** The counters this recount sets right, with the usersUnverified partition each one counts. */
const COUNTED: ReadonlyArray<{ field: StatsField; status: 'locked' | 'deleted' }> = [
  { field: 'users_unverified_locked', status: 'locked' },
  { field: 'users_unverified_deleted', status: 'deleted' },
];

export interface RecountLine {
  field: StatsField;
  /** the sum of the stats shards before the recount */
  kept: number;
  /** the accounts the index holds */
  counted: number;
  /** what was added to shard 0 (counted − kept) */
  corrected: number;
}

/** COUNT of one usersUnverified partition, page by page (a key range of that cohort only, no Scan). */
async function countPartition(status: string): Promise<number> {
  const index = INDEX.usersUnverified;
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index.indexName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': index.partitionKey },
        ExpressionAttributeValues: { ':pk': indexPartition.usersUnverified(status) },
        Select: 'COUNT',
        ExclusiveStartKey: startKey,
      }),
    );
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return count;
}

/**
 * Sets the unverified × locked / deleted counters (functions/lib/stats.ts `unverifiedDeltas`) to
 * what the usersUnverified index holds: for a table whose accounts were locked or deleted before
 * the counters existed (docs/scale-reads.md "Totals"). It counts each partition and ADDs the
 * difference to one shard, so writes that keep counting meanwhile are not lost; a status change of
 * an unverified account during the count can leave it off by that change, which a rerun (drift 0
 * once quiet) shows and fixes. Reads cost the unverified locked and deleted accounts, not the table.
 */
export async function recountUnverified(): Promise<RecountLine[]> {
  const [stats, ...counts] = await Promise.all([readStats(), ...COUNTED.map(({ status }) => countPartition(status))]);
  const lines = COUNTED.map(({ field }, i) => ({ field, kept: stats[field], counted: counts[i], corrected: counts[i] - stats[field] }));
  const corrections = lines.filter((line) => line.corrected !== 0);
  if (corrections.length) {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.statsShard(0),
        UpdateExpression: `ADD ${corrections.map((_, i) => `#f${i} :d${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(corrections.map((line, i) => [`#f${i}`, line.field])),
        ExpressionAttributeValues: Object.fromEntries(corrections.map((line, i) => [`:d${i}`, line.corrected])),
      }),
    );
  }
  return lines;
}
