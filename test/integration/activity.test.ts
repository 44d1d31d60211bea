import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { recordActivity } from '../../functions/lib/activity';
import { db, tableName } from '../../functions/lib/db';
import { readDayCounters, type DayCounter } from '../../functions/lib/stats';
import { indexKeys, keys } from '../../functions/lib/table';
import { drainActivityStream } from '../../infra/local/activity-stream';
import { createTestUser } from '../helpers/users';

/** A day counter's value once the activity stream is drained: the sum of its write shards (functions/lib/stats.ts). */
const count = async (key: { pk: string; sk: string }) => {
  await drainActivityStream();
  const day = key.sk.slice(4);
  return Number((await readDayCounters(key.pk.slice('STATS#'.length) as DayCounter, day, day)).get(day)?.count ?? 0);
};

describe('recordActivity', () => {
  it('counts a learner once a day and moves their last-active bucket forward', async () => {
    const user = await createTestUser();
    const monday = new Date('2026-03-02T09:00:00Z');
    const tuesday = new Date('2026-03-03T09:00:00Z');

    expect(await recordActivity(user.id, monday)).toBe(true);
    expect(await recordActivity(user.id, new Date('2026-03-02T18:00:00Z'))).toBe(false);
    expect(await count(keys.dailyActive('2026-03-02'))).toBe(1);
    expect(await count(keys.lastActiveDay('2026-03-02'))).toBe(1);

    expect(await recordActivity(user.id, tuesday)).toBe(true);
    expect(await count(keys.dailyActive('2026-03-03'))).toBe(1);
    expect(await count(keys.lastActiveDay('2026-03-02'))).toBe(0);
    expect(await count(keys.lastActiveDay('2026-03-03'))).toBe(1);

    const profile = await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(user.id) }));
    expect(profile.Item).toMatchObject({
      last_active_day: '2026-03-03',
      ...indexKeys.usersByActivity({ id: user.id, status: 'active' }, '2026-03-03'),
    });
  });

  it('counts concurrent first activities of the same learner once', async () => {
    const user = await createTestUser();
    const day = new Date('2026-04-10T10:00:00Z');
    const results = await Promise.all(Array.from({ length: 5 }, () => recordActivity(user.id, day)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await count(keys.dailyActive('2026-04-10'))).toBe(1);
    expect(await count(keys.lastActiveDay('2026-04-10'))).toBe(1);
  });

  it('uses the account the caller holds, and copes when its last active day is stale', async () => {
    const user = await createTestUser();
    expect(await recordActivity(user, new Date('2026-06-01T10:00:00Z'))).toBe(true);
    // `user` still says it was never active: the condition fails, the retry reads the item
    expect(await recordActivity(user, new Date('2026-06-02T10:00:00Z'))).toBe(true);
    expect(await recordActivity({ ...user, last_active_day: '2026-06-02' }, new Date('2026-06-02T18:00:00Z'))).toBe(false);
    expect(await count(keys.lastActiveDay('2026-06-01'))).toBe(0);
    expect(await count(keys.lastActiveDay('2026-06-02'))).toBe(1);
    expect(await count(keys.dailyActive('2026-06-02'))).toBe(1);
  });

  it('never creates an item for an account that is gone', async () => {
    const ghost = { id: 'gone-account', last_active_day: undefined };
    expect(await recordActivity(ghost, new Date('2026-05-01T00:00:00Z'))).toBe(false);
    const item = await db().send(new GetCommand({ TableName: tableName(), Key: keys.user('gone-account') }));
    expect(item.Item).toBeUndefined();
  });

  it('ignores an unknown account', async () => {
    expect(await recordActivity('no-such-user', new Date('2026-05-01T00:00:00Z'))).toBe(false);
  });
});
