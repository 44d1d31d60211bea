import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { runErasure } from '../../functions/admin/erasure';
import { erasureBacklogDays } from '../../functions/admin/erasure-backlog';
import { hardDeleteUser } from '../../functions/admin/hard-delete';
import { restoreUser, softDeleteUser } from '../../functions/admin/user-status';
import { dayOf } from '../../functions/lib/activity';
import { db, tableName } from '../../functions/lib/db';
import { indexKeys, indexPartition, keys } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { useApi } from '../helpers/api';
import { holdPurgeMessages } from '../helpers/hard-delete';
import { createTestUser } from '../helpers/users';
import { enroll } from '../../functions/program/enroll';
import { auditItemsOf, indexItems, setUserFields } from './program-helpers';
import { runAs } from '../../infra/local/iam/twin';

// The jobs under test run as their own Lambda function's IAM role, as in the cloud (infra/local/iam/twin.ts).
const erasureJob = (...args: Parameters<typeof runErasure>) => runAs('erasure', () => runErasure(...args));
const adminHardDelete = (...args: Parameters<typeof hardDeleteUser>) => runAs('admin', () => hardDeleteUser(...args));

/** Automatic erasure after retention (docs/product.md#account-data, docs/runbook.md#erasure), against DynamoDB Local. */
useApi();
const DAY = 24 * 3600 * 1000;
const RETENTION_DAYS = 30; // the default RETENTION_DAYS the deletion email states
const admin = { admin: { id: 'admin-erasure-test', email: 'admin@example.com' }, ip: '203.0.113.9', userAgent: 'test' };
const people: Record<string, UserRecord> = {};
// the purge queue holds what the job queued; the test runs it through the purge worker
const purges = holdPurgeMessages();

const profile = async (id: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(id), ConsistentRead: true }))).Item;
const purgeJob = async (id: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.purgeJob(id), ConsistentRead: true }))).Item;
const erasureIndex = async () => (await indexItems('erasureDue', indexPartition.erasureDue())).map((item) => String(item.id));
/** Soft-deletes through the product's own write, then moves the deletion back in time as the days would. */
async function softDeleted(name: string, daysAgo: number, { enrolled = false } = {}) {
  const user = await createTestUser({ first_name: name });
  if (enrolled) await enroll(user);
  await softDeleteUser(user.id, 'test', admin);
  if (daysAgo) {
    const deletedAt = new Date(Date.now() - daysAgo * DAY).toISOString();
    await setUserFields(user.id, { deleted_at: deletedAt, ...indexKeys.erasureDue(user.id, deletedAt) });
  }
  people[name] = user;
  return user;
}

beforeAll(async () => {
  // enrolled: the purge's first transaction also takes the enrollment out
  await softDeleted('Old', RETENTION_DAYS + 2, { enrolled: true });
  await softDeleted('Recent', 3);
  await softDeleted('Restored', RETENTION_DAYS + 5);
  await softDeleted('Manual', RETENTION_DAYS + 1);
  await createTestUser({ first_name: 'Active' });
  await restoreUser(people.Restored.id, admin);
}, 60_000);

describe('the erasure index', () => {
  it('holds the soft-deleted accounts only, oldest deletion first; a restore takes the account out', async () => {
    expect(await erasureIndex()).toEqual([people.Old.id, people.Manual.id, people.Recent.id]);
    expect((await profile(people.Restored.id))?.erasureDuePk).toBeUndefined();
  });

  it('gives the erasure backlog gauge: days since the oldest soft-delete still waiting', async () => {
    expect(await runAs('erasure', () => erasureBacklogDays(new Date()))).toBe(RETENTION_DAYS + 2);
    expect(await runAs('erasure', () => erasureBacklogDays(new Date(Date.now() + 10 * DAY)))).toBe(RETENTION_DAYS + 12);
  });
});

describe('the daily erasure job', () => {
  it("queues the purge of each account soft-deleted longer ago than the retention period, audited as the system's, once; the purge worker erases it", async () => {
    const send = vi.spyOn(db(), 'send');
    let summary;
    try {
      summary = await erasureJob({ now: new Date() });
      expect(send.mock.calls.map(([command]) => command.constructor.name)).not.toContain('ScanCommand');
    } finally {
      send.mockRestore();
    }
    // Old and Manual are due; Recent is not (outside the key range); Restored left the index
    expect(summary).toEqual({ considered: 2, queued: 2, skipped: 0, failed: 0, finished: true });
    // the run only started the purges (out of every index) and queued them: no step has run yet
    expect((await purges.queued()).map((message) => message.user_id)).toEqual([people.Old.id, people.Manual.id]);
    expect(await profile(people.Old.id)).toMatchObject({ status: 'purging' });
    expect(await erasureIndex()).toEqual([people.Recent.id]);
    // an index entry lagging behind the purge's start (the index is eventually consistent) queues nothing twice
    await setUserFields(people.Old.id, indexKeys.erasureDue(people.Old.id, String((await profile(people.Old.id))?.deleted_at)));
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.erasureCheckpoint(dayOf(new Date())) }));
    expect(await erasureJob({ now: new Date() })).toEqual({ considered: 1, queued: 0, skipped: 1, failed: 0, finished: true });
    expect(await purges.queued()).toHaveLength(2);
    await purges.finish();
    expect(await profile(people.Old.id)).toBeUndefined();
    expect((await purgeJob(people.Old.id))?.status).toBe('done');
    const entry = (await auditItemsOf(people.Old.id)).find((e) => e.action === 'system.user.hard_delete');
    // no actor account: the entry stores no actor id at all (absent fields are not stored)
    expect(entry).not.toHaveProperty('actor_user_id');
    expect(entry).toMatchObject({
      actor_email: 'system',
      entity_type: 'user',
      entity_id: people.Old.id,
      new_values: { hard_deleted: true, reason: 'retention_expired', retention_days: RETENTION_DAYS },
    });
    expect(await erasureIndex()).toEqual([people.Recent.id]);
  });

  it('keeps a recent soft-delete and a restored account', async () => {
    expect((await profile(people.Recent.id))?.status).toBe('deleted');
    expect((await profile(people.Restored.id))?.status).toBe('active');
    expect(await purgeJob(people.Recent.id)).toBeUndefined();
    expect(await purgeJob(people.Restored.id)).toBeUndefined();
  });

  it('is idempotent: a rerun the same day does nothing, a lost checkpoint finds nothing more to erase', async () => {
    expect(await erasureJob({ now: new Date() })).toMatchObject({ considered: 0, queued: 0, finished: true });
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.erasureCheckpoint(dayOf(new Date())) }));
    expect(await erasureJob({ now: new Date() })).toEqual({
      considered: 0,
      queued: 0,
      skipped: 0,
      failed: 0,
      finished: true,
    });
    expect((await profile(people.Recent.id))?.status).toBe('deleted');
  });

  it('resumes from its checkpoint: out of time after a page, the rerun continues from the cursor', async () => {
    const later = new Date(Date.now() + (RETENTION_DAYS + 1) * DAY); // Recent is due by then
    const extra = await softDeleted('Later', 1);
    // one page of one account, checkpointed, then out of time (as a Lambda near its timeout)
    const send = vi.spyOn(db(), 'send');
    // the checkpoint counts once its write has succeeded (the spy passes every command on)
    const checkpointed = () =>
      send.mock.calls.some(([command], i) => {
        const input = command.input as { Key?: { pk?: unknown } };
        return (
          input.Key?.pk === `JOB#erasure#${dayOf(later)}` &&
          command.constructor.name === 'UpdateCommand' &&
          send.mock.settledResults[i]?.type === 'fulfilled'
        );
      });
    let first;
    try {
      first = await erasureJob({ now: later, pageSize: 1, timeLeftMs: () => (checkpointed() ? 0 : Number.POSITIVE_INFINITY) });
    } finally {
      send.mockRestore();
    }
    expect(first).toMatchObject({ finished: false, considered: 1, queued: 1 });
    const checkpoint = (
      await db().send(new GetCommand({ TableName: tableName(), Key: keys.erasureCheckpoint(dayOf(later)), ConsistentRead: true }))
    ).Item;
    expect(checkpoint).toMatchObject({ done: false, considered: 1, queued: 1 });
    const rest = await erasureJob({ now: later, pageSize: 1 });
    expect(rest).toMatchObject({ finished: true, queued: 1, failed: 0 });
    await purges.finish();
    expect(await profile(people.Recent.id)).toBeUndefined();
    expect(await profile(extra.id)).toBeUndefined();
  });

  it("leaves the admin's manual hard delete as it was (before the retention: refused; a finished erasure answers done)", async () => {
    const early = await softDeleted('Early', 2);
    await expect(adminHardDelete(early.id, early.email, admin)).rejects.toMatchObject({ statusCode: 409, code: 'retention_active' });
    await expect(adminHardDelete(people.Manual.id, people.Manual.email, admin)).resolves.toMatchObject({ deleted: true, status: 'done' });
  });
});
