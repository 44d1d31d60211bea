import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { mockDocumentClient } from '../../test/helpers/dynamo-mock';
import { tableName } from './db';
import {
  DAY_SHARDS,
  dayCounterUpdate,
  lastActiveDeltas,
  lastActiveStatusMove,
  readStats,
  STATS_SHARDS,
  unverifiedDeltas,
  week1CompletedWrites,
} from './stats';
import { keys } from './table';

describe('week-1 completion counters', () => {
  const enrolledAt = '2026-03-02T09:00:00.000Z';

  it('counts an on-time completion as a stats delta plus the enroll-day bucket, never a second shard update', () => {
    const { stats, writes } = week1CompletedWrites(enrolledAt, '2026-03-08T09:00:00.000Z');
    expect(stats).toEqual({ week1_on_time_total: 1 });
    expect(writes).toHaveLength(1);
    expect(writes[0].Update.Key.pk).toBe('STATS#ENROLLDAY');
    expect(writes[0].Update.Key.sk).toMatch(/^DAY#2026-03-02#\d{2}$/); // a write shard of the enroll day
  });

  it('counts nothing for a completion after the 7-day window (it stays a drop-off)', () => {
    expect(week1CompletedWrites(enrolledAt, '2026-03-09T09:00:01.000Z')).toEqual({ stats: {}, writes: [] });
  });
});

describe('day counters', () => {
  it('spread a day over its write shards so a burst does not hit one item', () => {
    const keys = new Set(Array.from({ length: 400 }, () => dayCounterUpdate('DAILYACTIVE', '2026-03-02', { count: 1 })!.Update.Key.sk));
    expect(keys.size).toBe(DAY_SHARDS);
    for (const sk of keys) expect(sk).toMatch(/^DAY#2026-03-02#(0\d|1[0-5])$/);
  });

  it('add only non-zero deltas, and nothing at all when every delta is zero', () => {
    const update = dayCounterUpdate('ENROLLDAY', '2026-03-02', { enrolled: -1, week1_on_time: 0 })!;
    expect(update.Update.UpdateExpression).toBe('ADD #f0 :d0');
    expect(update.Update.ExpressionAttributeValues).toEqual({ ':d0': -1 });
    expect(dayCounterUpdate('LASTACTIVE', '2026-03-02', { count: 0 })).toBeUndefined();
  });
});

describe('unverified × status counters', () => {
  it('move with status and verification, and count only unverified locked or deleted accounts', () => {
    const d = (before: Parameters<typeof unverifiedDeltas>[0], after: Parameters<typeof unverifiedDeltas>[1]) =>
      unverifiedDeltas(before, after);
    expect(d(undefined, { status: 'active', verified: false })).toEqual({ users_unverified_locked: 0, users_unverified_deleted: 0 });
    expect(d(undefined, { status: 'locked', verified: false })).toEqual({ users_unverified_locked: 1, users_unverified_deleted: 0 });
    expect(d({ status: 'locked', verified: false }, { status: 'deleted', verified: false })).toEqual({
      users_unverified_locked: -1,
      users_unverified_deleted: 1,
    });
    expect(d({ status: 'locked', verified: false }, { status: 'locked', verified: true })).toEqual({
      users_unverified_locked: -1,
      users_unverified_deleted: 0,
    });
    expect(d({ status: 'deleted', verified: true }, { status: 'deleted', verified: false })).toEqual({
      users_unverified_locked: 0,
      users_unverified_deleted: 1,
    });
    expect(d({ status: 'deleted', verified: false }, undefined)).toEqual({ users_unverified_locked: 0, users_unverified_deleted: -1 });
    expect(d({ status: 'locked', verified: true }, { status: 'active', verified: true })).toEqual({
      users_unverified_locked: 0,
      users_unverified_deleted: 0,
    });
  });
});

describe('last-active histogram by status', () => {
  const deltasOf = (item: ReturnType<typeof lastActiveStatusMove>) =>
    item &&
    Object.fromEntries(
      Object.entries(item.Update.ExpressionAttributeNames).map(([name, field]) => [
        field,
        item.Update.ExpressionAttributeValues[`:d${name.slice(2)}`],
      ]),
    );

  it('counts every account and, beside, the locked and the deleted ones', () => {
    expect(lastActiveDeltas('active', 1)).toEqual({ count: 1 });
    expect(lastActiveDeltas('locked', 1)).toEqual({ count: 1, count_locked: 1 });
    expect(lastActiveDeltas('deleted', -1)).toEqual({ count: -1, count_deleted: -1 });
  });

  it("moves a status change within the account's last-active day, and an erasure out of it", () => {
    const user = { status: 'locked', last_active_day: '2026-03-02' };
    const move = lastActiveStatusMove(user, 'deleted');
    expect(move?.Update.Key.sk).toMatch(/^DAY#2026-03-02#\d{2}$/);
    expect(deltasOf(move)).toEqual({ count_locked: -1, count_deleted: 1 });
    expect(deltasOf(lastActiveStatusMove({ status: 'active', last_active_day: '2026-03-02' }, 'locked'))).toEqual({ count_locked: 1 });
    expect(deltasOf(lastActiveStatusMove({ status: 'deleted', last_active_day: '2026-03-02' }, undefined))).toEqual({
      count: -1,
      count_deleted: -1,
    });
  });

  it('writes nothing for an account never active, or a change that keeps the status', () => {
    expect(lastActiveStatusMove({ status: 'active' }, 'locked')).toBeUndefined();
    expect(lastActiveStatusMove({ status: 'deleted', last_active_day: '2026-03-02' }, 'deleted')).toBeUndefined();
  });
});

describe('readStats', () => {
  const dynamo = mockDocumentClient();

  it('reads the shards DynamoDB left unprocessed again: the totals count every shard', async () => {
    const shard = (n: number) => ({ ...keys.statsShard(n), users_total: 1 });
    const unprocessed = [keys.statsShard(8), keys.statsShard(9)];
    dynamo
      .on(BatchGetCommand)
      .resolvesOnce({
        Responses: { [tableName()]: Array.from({ length: 8 }, (_, n) => shard(n)) },
        UnprocessedKeys: { [tableName()]: { Keys: unprocessed } },
      })
      .resolvesOnce({ Responses: { [tableName()]: [shard(8), shard(9)] } });
    expect((await readStats()).users_total).toBe(STATS_SHARDS);
    expect(dynamo.commandCalls(BatchGetCommand)[1].args[0].input.RequestItems![tableName()].Keys).toEqual(unprocessed);
  });
});
