import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { recountUnverified } from '../../functions/admin/unverified-recount';
import { db, tableName } from '../../functions/lib/db';
import { readStats, STATS_SHARDS } from '../../functions/lib/stats';
import { keys } from '../../functions/lib/table';
import { createTestUser } from '../helpers/users';

/**
 * The `recount-unverified` step of `npm run migrate` (functions/admin/unverified-recount.ts): a table whose unverified
 * locked / deleted accounts existed before their counters gets exact totals, and a rerun on a
 * table that is right changes nothing.
 */
async function counters() {
  const stats = await readStats();
  return { locked: stats.users_unverified_locked, deleted: stats.users_unverified_deleted };
}

/** What a table written before the counters existed looks like: every shard's counter at zero. */
async function forgetCounters() {
  for (let shard = 0; shard < STATS_SHARDS; shard++)
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.statsShard(shard),
        UpdateExpression: 'REMOVE users_unverified_locked, users_unverified_deleted',
      }),
    );
}

describe('recount of the unverified × status counters', () => {
  it('sets them to what the index holds, keeps counting writes made after it, and a rerun changes nothing', async () => {
    for (let i = 0; i < 3; i++) await createTestUser({ verified: false, status: 'locked' });
    for (let i = 0; i < 2; i++) await createTestUser({ verified: false, status: 'deleted' });
    await createTestUser({ verified: true, status: 'locked' });
    await createTestUser({ verified: false });
    expect(await counters()).toEqual({ locked: 3, deleted: 2 });

    await forgetCounters();
    expect(await counters()).toEqual({ locked: 0, deleted: 0 });

    const lines = await recountUnverified();
    expect(lines).toEqual([
      { field: 'users_unverified_locked', kept: 0, counted: 3, corrected: 3 },
      { field: 'users_unverified_deleted', kept: 0, counted: 2, corrected: 2 },
    ]);
    expect(await counters()).toEqual({ locked: 3, deleted: 2 });

    // the writes keep counting on top of the corrected figures
    await createTestUser({ verified: false, status: 'locked' });
    expect(await counters()).toEqual({ locked: 4, deleted: 2 });

    const again = await recountUnverified();
    expect(again.map((line) => line.corrected)).toEqual([0, 0]);
    expect(await counters()).toEqual({ locked: 4, deleted: 2 });
  });

  it('also corrects a counter that is too high', async () => {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.statsShard(7),
        UpdateExpression: 'ADD users_unverified_deleted :five',
        ExpressionAttributeValues: { ':five': 5 },
      }),
    );
    const before = await counters();
    const [, deleted] = await recountUnverified();
    expect(deleted.corrected).toBe(-5);
    expect(await counters()).toEqual({ locked: before.locked, deleted: before.deleted - 5 });
  });
});
