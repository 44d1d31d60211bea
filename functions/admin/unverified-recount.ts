import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../lib/db';
import { readStats, statsShardUpdate, type StatsField } from '../lib/stats';
import { indexPartition } from '../lib/table';
import { boundedCount } from './paging';

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

/**
 * Sets the unverified × locked / deleted counters (functions/lib/stats.ts `unverifiedDeltas`) to
 * what the usersUnverified index holds: for a table whose accounts were locked or deleted before
 * the counters existed (docs/scale-reads.md "Totals"). It counts each partition and ADDs the
 * difference to one shard, so writes that keep counting meanwhile are not lost; a status change of
 * an unverified account during the count can leave it off by that change, which a rerun (drift 0
 * once quiet) shows and fixes. Reads cost the unverified locked and deleted accounts, not the table.
 */
export async function recountUnverified(): Promise<RecountLine[]> {
  const [stats, counts] = await Promise.all([
    readStats(),
    // each whole partition (no cap): a key range of those accounts only, no Scan
    Promise.all(
      COUNTED.map(async ({ status }) => {
        const stream = { index: 'usersUnverified' as const, partition: indexPartition.usersUnverified(status) };
        return (await boundedCount([stream], Number.POSITIVE_INFINITY)).total;
      }),
    ),
  ]);
  const lines = COUNTED.map(({ field }, i) => ({ field, kept: stats[field], counted: counts[i], corrected: counts[i] - stats[field] }));
  const correction = statsShardUpdate(0, Object.fromEntries(lines.map((line) => [line.field, line.corrected])));
  if (correction) await db().send(new UpdateCommand(correction.Update));
  return lines;
}
