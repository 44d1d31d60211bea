import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { hardDeleteUser } from '../../functions/admin/hard-delete';
import { continuePurge, type purgeStatus } from '../../functions/admin/purge-job';
import { dayOf } from '../../functions/lib/activity';
import { auditItems } from '../../functions/lib/audit';
import { batchWriteItems } from '../../functions/lib/batch-items';
import { db, tableName } from '../../functions/lib/db';
import { readDayCounters, readStats } from '../../functions/lib/stats';
import { keys } from '../../functions/lib/table';
import { searchItems } from '../../functions/lib/users';
import { enroll } from '../../functions/program/enroll';
import type { AdminUserListItem, ListPage } from '../../shared/admin-types';
import { useApi } from '../helpers/api';
import { legacyAuditItem } from '../helpers/legacy-audit';
import { createTestUser, signIn } from '../helpers/users';
import { setUserFields } from './program-helpers';
import { runAs } from '../../infra/local/iam/twin';
import { everyItem } from '../helpers/every-item';

// The jobs under test run as their own Lambda function's IAM role, as in the cloud (infra/local/iam/twin.ts).
const adminHardDelete = (...args: Parameters<typeof hardDeleteUser>) => runAs('admin', () => hardDeleteUser(...args));
const purgeWorker = (...args: Parameters<typeof continuePurge>) => runAs('purge', () => continuePurge(...args));

/**
 * A hard delete of a heavy account (300 audit entries, 400 activity days: several transactions and
 * batch pages of each step) that dies midway —
 * once between steps, once in the middle of a write burst — then is rerun by the admin: it must
 * finish, leave no item of the account, no personal data anywhere in the table, and every
 * aggregate where it would have been without the account (docs/scale-writes.md). The data is
 * written directly with BatchWriteItem through the key builders so the test stays fast.
 */
const api = useApi();
const DAY = 24 * 3600 * 1000;
const AUDIT_ENTRIES = 300;
const ACTIVITY_DAYS = 400;
const PII = ['Persephone', 'Purgeworthy', '198.51.100.77', 'PurgeBrowser/1.0'];
/** `GET /api/admin/users/{id}/hard-delete/status` */
type PurgeStatus = Awaited<ReturnType<typeof purgeStatus>>;
/** `expect.any` is typed `any`: held as `unknown` so the objects it goes into stay type-checked. */
const anyNumber: unknown = expect.any(Number);

async function batchPut(items: Record<string, unknown>[]) {
  await batchWriteItems(
    items.map((Item) => ({ PutRequest: { Item } })),
    8,
  );
}

/** Makes the K-th write of the app's client fail, as a Lambda killed in the middle of a burst. */
function crashOnWrite(k: number) {
  let writes = 0;
  const name = 'simulatedCrash';
  db().middlewareStack.add(
    (next, context) => async (args) => {
      if (/^(BatchWriteItem|TransactWriteItems|UpdateItem|PutItem|DeleteItem)Command$/.test(context.commandName ?? '') && ++writes === k) {
        throw new Error('simulated crash');
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  return () => db().middlewareStack.remove(name);
}

describe('hard delete of a heavy account, interrupted and rerun', () => {
  it('finishes and leaves nothing of the account and no personal data', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const adminClient = api.client();
    await signIn(adminClient, admin);
    const caller = { admin, ip: '203.0.113.1', userAgent: 'AdminBrowser' };
    const unknown = await adminClient.get('/api/admin/users/00000000-0000-0000-0000-000000000000/hard-delete/status');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'not_found' });
    const baseline = await readStats();
    const now = new Date();
    const today = dayOf(now);
    const oldest = dayOf(new Date(now.getTime() - (ACTIVITY_DAYS - 1) * DAY));
    const activeBefore = await readDayCounters('DAILYACTIVE', oldest, today);

    const user = await createTestUser({ first_name: 'Persephone', last_name: 'Purgeworthy' });
    await enroll(user, new Date(now.getTime() - 60 * DAY));
    const actor = { id: user.id, email: user.email };
    await batchPut([
      // the account's own requests: logins, with its address and browser; every other one written
      // before the references (legacy index attributes, no references)
      ...Array.from({ length: AUDIT_ENTRIES }, (_, index) => {
        const login = {
          action: 'auth.login',
          actor,
          entityType: 'user',
          entityId: user.id,
          newValues: { email: user.email, first_name: 'Persephone' },
          ip: '198.51.100.77',
          userAgent: 'PurgeBrowser/1.0',
        };
        const at = new Date(now.getTime() - 30 * DAY + index * 1000);
        return index % 2 ? [legacyAuditItem(login, at)] : auditItems(login, at);
      }).flat(),
      // the activity days, each counted in the day's active learners
      ...Array.from({ length: ACTIVITY_DAYS }, (_, index) => {
        const day = dayOf(new Date(now.getTime() - index * DAY));
        return { ...keys.activity(day, user.id), type: 'activity', user_id: user.id, day };
      }),
      ...Array.from({ length: ACTIVITY_DAYS }, (_, index) => ({
        ...keys.dailyActiveShard(dayOf(new Date(now.getTime() - index * DAY)), 7),
        count: 1,
      })),
      ...Array.from({ length: 3 }, (_, index) => ({
        ...keys.session(user.id, `s-${index}`),
        type: 'session',
        user_id: user.id,
        ip: '198.51.100.77',
      })),
      ...Array.from({ length: 30 }, (_, index) => ({
        ...keys.taskAnswer(user.id, 'career-4w', 'm', `t-${index}`),
        type: 'task_answer',
        answer: 'I am Persephone Purgeworthy',
      })),
    ]);
    expect((await adminClient.post(`/api/admin/users/${user.id}/soft-delete`, { reason: 'Asked by email' })).status).toBe(200);
    await setUserFields(user.id, { deleted_at: new Date(now.getTime() - 31 * DAY).toISOString() });

    // 1) killed mid-burst (the 40th write: in the activity or audit step, after some deletes)
    let stop = crashOnWrite(40);
    await expect(adminHardDelete(user.id, user.email, caller, new Date(), { timeLeftMs: () => 60_000 })).rejects.toThrow('simulated crash');
    stop();
    const midway = (await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(user.id), ConsistentRead: true }))).Item;
    expect(midway?.status).toBe('purging');
    expect(midway?.gsi1pk).toBeUndefined(); // out of every list already
    expect((await adminClient.get(`/api/admin/users/${user.id}/hard-delete/status`)).body.status).toBe('purging');
    for (const list of ['/api/admin/users?query=persephone', '/api/admin/users?status=deleted', '/api/admin/users?status=all']) {
      const ids = (await adminClient.get<ListPage<AdminUserListItem>>(list)).body.items.map((item: { id: string }) => item.id);
      expect(ids, list).not.toContain(user.id);
    }

    // 2) a background run that hits its time limit (checkpointed), then is killed again mid-burst
    let calls = 0;
    const partial = await purgeWorker(user.id, { timeLeftMs: () => (++calls > 5 ? 0 : 60_000) });
    expect(partial.status).toBe('purging');
    stop = crashOnWrite(5);
    await expect(purgeWorker(user.id)).rejects.toThrow('simulated crash');
    stop();

    // 3) the admin reruns the hard delete: it resumes and completes
    const rerun = await adminClient.delete(`/api/admin/users/${user.id}?confirm_email=${encodeURIComponent(user.email)}`);
    expect([200, 202]).toContain(rerun.status);
    let status = (await adminClient.get<PurgeStatus>(`/api/admin/users/${user.id}/hard-delete/status`)).body;
    while (status.status !== 'done') {
      await purgeWorker(user.id); // the background worker's turn
      status = (await adminClient.get<PurgeStatus>(`/api/admin/users/${user.id}/hard-delete/status`)).body;
    }
    // a run killed within a chunk of activity days deleted some before its checkpoint: the rerun
    // does not find them again, so that count is a lower bound; the items and the day counts are exact (below)
    expect(status.counts.activity_days).toBeLessThanOrEqual(ACTIVITY_DAYS);
    expect(status.counts.activity_days).toBeGreaterThan(ACTIVITY_DAYS / 2);
    expect(status.counts).toMatchObject({
      sessions: 3,
      tasks: 30,
      audit_entries_anonymised: anyNumber,
    });
    expect(status.counts.audit_entries_anonymised).toBeGreaterThanOrEqual(AUDIT_ENTRIES);
    // a rerun after completion answers done
    expect((await adminClient.delete(`/api/admin/users/${user.id}?confirm_email=${encodeURIComponent(user.email)}`)).body).toMatchObject({
      deleted: true,
      status: 'done',
    });

    // nothing of the account is left
    const partition = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `USER#${user.id}` },
        ConsistentRead: true,
      }),
    );
    expect(partition.Items).toEqual([]);
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.email(user.email) }))).Item).toBeUndefined();
    const items = await everyItem();
    expect(items.filter((item) => String(item.pk).startsWith('ACTIVITY#') && item.user_id === user.id)).toEqual([]);
    const searchKeys = new Set(searchItems(user).map((item) => `${item.pk}|${item.sk}`));
    expect(items.filter((item) => searchKeys.has(`${item.pk as string}|${item.sk as string}`))).toEqual([]);
    // …and no personal data anywhere in the table (the audit entries stay, anonymised)
    const text = JSON.stringify(items);
    expect(text).not.toContain(user.email);
    expect(text).not.toContain(user.email_lower);
    for (const value of PII) expect(text, value).not.toContain(value);
    const audit = items.filter((item) => String(item.pk).startsWith('AUDIT#') && item.entity_id === user.id);
    expect(audit.length).toBe(AUDIT_ENTRIES + 2); // + soft delete + hard delete
    // the references stay too (the account's own entries named it by id), their actor email
    // anonymised; those named after the actor's domain are gone
    const refs = items.filter((item) => String(item.pk).startsWith('AUDITREF#') && item.entity_id === user.id);
    expect(refs.filter((item) => String(item.pk).startsWith('AUDITREF#ENTITY#')).length).toBe(AUDIT_ENTRIES / 2 + 2);
    expect(refs.filter((item) => item.actor_user_id === user.id).every((item) => item.actor_email === 'deleted-user')).toBe(true);
    expect(refs.filter((item) => String(item.pk).startsWith('AUDITREF#DOMAIN#') && item.actor_user_id === user.id)).toEqual([]);

    // every aggregate is where it would be without the account
    const after = await readStats();
    for (const field of [
      'users_total',
      'users_verified',
      'users_deleted',
      'enrollments_total',
      'modules_total',
      'enrollment_percent_sum',
    ] as const) {
      expect(after[field], field).toBe(baseline[field]);
    }
    const activeAfter = await readDayCounters('DAILYACTIVE', oldest, today);
    for (const [day, counts] of activeAfter) expect(counts.count ?? 0, day).toBe(activeBefore.get(day)?.count ?? 0);
  }, 180_000);
});
