import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  auditEntriesOf,
  auditEntryOf,
  auditRefPartitions,
  LEGACY_AUDIT_INDEX_ATTRIBUTES,
  type AuditEntry,
} from '../../functions/lib/audit';
import { migrateAuditEntries } from '../../functions/lib/audit-migration';
import { batchWriteItems } from '../../functions/lib/batch-items';
import { db, tableName } from '../../functions/lib/db';
import { queryAll } from '../../functions/lib/query-pages';
import { auditRefPartition, auditShardOf, indexAttributes, keys } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { program } from '../../functions/program/content';
import { newEnrollment } from '../../functions/program/enroll';
import { reminderShard } from '../../functions/program/reminder-index';
import { migrateReminderIndex } from '../../functions/program/reminder-index-migration';
import { backfillStalledAt } from '../../functions/program/stalled-at-backfill';
import { migrationSteps } from '../../infra/ops/migration-steps';
import { runMigrations } from '../../infra/ops/migrations';
import { legacyAuditItem } from '../helpers/legacy-audit';
import { createTestUser } from '../helpers/users';
import { setUserFields } from './program-helpers';

/**
 * `npm run migrate` (infra/ops/migrations.ts): every named step runs once and is recorded; a
 * rerun skips the recorded ones, a failed step is not recorded and runs again next time.
 */
const quiet = { log: () => undefined };
/** The entries a reference partition names, newest first (as the audit screens read them). */
const storedAuditRefEntries = async (partition: string) =>
  (
    await auditEntriesOf(
      await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': partition }, ScanIndexForward: false }),
    )
  ).map(auditEntryOf);
const record = async (name: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.migration(name), ConsistentRead: true }))).Item;

describe('data migrations', () => {
  it('runs each step once, records it, and a rerun skips it unless named again', async () => {
    await createTestUser({ verified: false, status: 'locked' });
    const names = migrationSteps.map((step) => step.name);
    expect(names).toEqual([
      'backfill-funnel',
      'recount-unverified',
      'backfill-search-items',
      'reminder-send-hours',
      'backfill-stalled-at',
      'audit-references',
    ]);

    expect(await runMigrations(migrationSteps, quiet)).toEqual({ applied: names, skipped: [] });
    for (const name of names) {
      const item = await record(name);
      expect(item?.name).toBe(name);
      expect(Date.parse(String(item?.applied_at))).not.toBeNaN();
    }

    expect(await runMigrations(migrationSteps, quiet)).toEqual({ applied: [], skipped: names });
    expect(await runMigrations(migrationSteps, quiet, ['recount-unverified'])).toEqual({
      applied: ['recount-unverified'],
      skipped: ['backfill-funnel', 'backfill-search-items', 'reminder-send-hours', 'backfill-stalled-at', 'audit-references'],
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

  it('gives the audit entries written before the references theirs and takes their index keys away, once', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const target = await createTestUser();
    const at = (daysAgo: number) => new Date(Date.now() - daysAgo * 24 * 3600 * 1000);
    // ids whose shard is the day's first partition (where legacy entries are) and another one
    const idOfShard = (first: boolean) => {
      for (;;) {
        const id = randomUUID();
        if ((auditShardOf(id) === 0) === first) return id;
      }
    };
    const action = `audit.test.migrate.${randomUUID().slice(0, 8)}`;
    const legacy = [
      legacyAuditItem(
        { action, actor: { id: admin.id, email: admin.email }, entityType: 'user', entityId: target.id },
        at(3),
        idOfShard(true),
      ),
      legacyAuditItem({ action, entityType: 'user', entityId: target.id, newValues: { note: 'system' } }, at(40), idOfShard(false)),
    ];
    await batchWriteItems(legacy.map((Item) => ({ PutRequest: { Item } })));
    const stored = async () =>
      Promise.all(
        legacy.map(async (item) => {
          const entry = auditEntryOf(item);
          const body = (
            await db().send(new GetCommand({ TableName: tableName(), Key: { pk: item.pk, sk: item.sk }, ConsistentRead: true }))
          ).Item;
          const refs = await Promise.all(
            auditRefPartitions(entry).map(
              async (pk) =>
                (await db().send(new GetCommand({ TableName: tableName(), Key: { pk, sk: item.sk }, ConsistentRead: true }))).Item,
            ),
          );
          return { body, refs };
        }),
      );

    const first = await migrateAuditEntries();
    expect(first.converted).toBeGreaterThanOrEqual(2);
    const converted = await stored();
    converted.forEach(({ body, refs }, index) => {
      const { pk, sk, expires_at } = legacy[index];
      for (const name of LEGACY_AUDIT_INDEX_ATTRIBUTES) expect(body, name).not.toHaveProperty(name);
      expect(body).toMatchObject({ pk, sk, id: legacy[index].id, action });
      expect(refs.length).toBe(index === 0 ? 4 : 2); // entity, actor, action, domain; entity, action
      // the entry stays in the day's first partition: a reference of an entry of another shard names it
      for (const ref of refs) {
        expect(ref).toMatchObject({ sk, expires_at, action, entity_id: target.id });
        expect(ref?.entry_pk).toBe(index === 1 ? pk : undefined);
      }
    });
    expect(converted[0].refs.map((ref) => ref?.actor_email as unknown)).toEqual(Array(4).fill(admin.email));

    // a rerun changes nothing
    await migrateAuditEntries();
    expect(await stored()).toEqual(converted);

    // the action filter reads the action's references month by month (one shard: not a routine action)
    const found: AuditEntry[] = [];
    for (const when of [at(3), at(40)])
      found.push(...(await storedAuditRefEntries(auditRefPartition.action(action, when.toISOString().slice(0, 7), 0))));
    expect(found.map((entry) => entry.id)).toEqual(legacy.map((item) => item.id));
  });
});
