import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../functions/lib/db';
import { indexAttributes, keys } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { program } from '../../functions/program/content';
import { newEnrollment } from '../../functions/program/enroll';
import { reminderShard } from '../../functions/program/reminder-index';
import { migrateReminderIndex } from '../../functions/program/reminder-index-migration';
import { backfillStalledAt } from '../../functions/program/stalled-at-backfill';
import { migrationSteps } from '../../infra/ops/migration-steps';
import { runMigrations } from '../../infra/ops/migrations';
import { createTestUser } from '../helpers/users';
import { setUserFields } from './program-helpers';

/**
 * `npm run migrate` (infra/ops/migrations.ts): every named step runs once and is recorded; a
 * rerun skips the recorded ones, a failed step is not recorded and runs again next time.
 */
const quiet = { log: () => undefined };
const record = async (name: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.migration(name), ConsistentRead: true }))).Item;

describe('data migrations', () => {
  it('runs each step once, records it, and a rerun skips it unless named again', async () => {
    await createTestUser({ verified: false, status: 'locked' });
    const names = migrationSteps.map((step) => step.name);
    expect(names).toEqual(['backfill-funnel', 'recount-unverified', 'backfill-search-items', 'reminder-send-hours', 'backfill-stalled-at']);

    expect(await runMigrations(migrationSteps, quiet)).toEqual({ applied: names, skipped: [] });
    for (const name of names) {
      const item = await record(name);
      expect(item?.name).toBe(name);
      expect(Date.parse(String(item?.applied_at))).not.toBeNaN();
    }

    expect(await runMigrations(migrationSteps, quiet)).toEqual({ applied: [], skipped: names });
    expect(await runMigrations(migrationSteps, quiet, ['recount-unverified'])).toEqual({
      applied: ['recount-unverified'],
      skipped: ['backfill-funnel', 'backfill-search-items', 'reminder-send-hours', 'backfill-stalled-at'],
    });
    await expect(runMigrations(migrationSteps, quiet, ['no-such-step'])).rejects.toThrow('unknown migration: no-such-step');
  });

  it('does not record a step that failed, so the next run runs it again', async () => {
    let attempts = 0;
    const flaky = [
      {
        name: 'probe-flaky-step',
        run: () => {
          attempts += 1;
          return attempts === 1 ? Promise.reject(new Error('interrupted')) : Promise.resolve();
        },
      },
    ];
    await expect(runMigrations(flaky, quiet)).rejects.toThrow('interrupted');
    expect(await record('probe-flaky-step')).toBeUndefined();
    expect(await runMigrations(flaky, quiet)).toEqual({ applied: ['probe-flaky-step'], skipped: [] });
    expect(attempts).toBe(2);
  });

  it('moves reminder index entries of the partitions without a send hour to their learner’s hour, once', async () => {
    const tokyo = await createTestUser({ time_zone: 'Asia/Tokyo' });
    const utc = await createTestUser({});
    const off = await createTestUser({});
    await setUserFields(utc.id, { reminder_frequency: 'weekly' });
    await setUserFields(off.id, { reminder_frequency: 'off' });
    const [pkName, skName] = indexAttributes('remindersDue');
    const legacy = (user: UserRecord, partition: string) =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...newEnrollment(user.id, program(), '2030-03-04T10:00:00.000Z'), [pkName]: partition, [skName]: user.id },
        }),
      );
    const shard = reminderShard(tokyo.id);
    await legacy(tokyo, `REMIND#daily#${shard}`);
    await legacy(utc, `REMIND#weekly#1#${reminderShard(utc.id)}`);
    await legacy(off, `REMIND#daily#${reminderShard(off.id)}`);
    const partition = async (user: UserRecord) =>
      (await db().send(new GetCommand({ TableName: tableName(), Key: keys.enrollment(user.id, program().id), ConsistentRead: true })))
        .Item?.[pkName] as string | undefined;

    expect(await migrateReminderIndex(new Date('2030-03-05T12:00:00Z'))).toEqual({ moved: 2, removed: 1 });
    // Tokyo's 09:00 is 00:00 UTC; a Monday enrollment in UTC is mailed Mondays at 09:00 UTC
    expect(await partition(tokyo)).toBe(`REMIND#daily#00#${shard}`);
    expect(await partition(utc)).toBe(`REMIND#weekly#1#09#${reminderShard(utc.id)}`);
    expect(await partition(off)).toBeUndefined();
    expect(await migrateReminderIndex()).toEqual({ moved: 0, removed: 0 });
  });

  it('puts each counted enrollment into the stalledAt index at its first module in progress, once', async () => {
    const [m0, m1, m2] = program().modules.map((module) => module.module_id);
    const [pkName, skName] = indexAttributes('stalledAt');
    const enrollment = (user: UserRecord, fields: Record<string, unknown>) =>
      db().send(
        new PutCommand({ TableName: tableName(), Item: { ...newEnrollment(user.id, program(), '2030-03-04T10:00:00.000Z'), ...fields } }),
      );
    const entry = async (user: UserRecord) => {
      const item = (
        await db().send(new GetCommand({ TableName: tableName(), Key: keys.enrollment(user.id, program().id), ConsistentRead: true }))
      ).Item;
      return [item?.[pkName] as string | undefined, item?.[skName] as string | undefined];
    };
    const stalled = await createTestUser({});
    const finished = await createTestUser({});
    const staff = await createTestUser({ role: 'admin' });
    await enrollment(stalled, { funnel_completed: [m0], funnel_in_progress: [m1, m2] });
    await enrollment(finished, {
      funnel_completed: [m0, m1, m2],
      funnel_in_progress: [],
      [pkName]: `STALLED#${m2}`,
      [skName]: finished.id,
    });
    await enrollment(staff, { staff: true });

    expect(await backfillStalledAt(undefined, () => undefined, 1)).toEqual({ set: 1, cleared: 1, current: 0 });
    expect(await entry(stalled)).toEqual([`STALLED#${m1}`, stalled.id]);
    expect(await entry(finished)).toEqual([undefined, undefined]);
    expect(await entry(staff)).toEqual([undefined, undefined]);
    expect(await backfillStalledAt()).toEqual({ set: 0, cleared: 0, current: 2 });
  });
});
