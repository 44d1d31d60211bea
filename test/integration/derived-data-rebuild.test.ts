import { DynamoDBClient, paginateScan } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { rebuildDerivedData, type RebuildProgress } from '../../functions/admin/derived-data-rebuild';
import { hashPassword } from '../../functions/accounts/passwords';
import { dayOf } from '../../functions/lib/activity';
import { auditRefItemsOf } from '../../functions/lib/audit';
import { setClockSource } from '../../functions/lib/clock';
import { capacityMeter, db, tableName } from '../../functions/lib/db';
import { readDayCounters } from '../../functions/lib/stats';
import { AUDIT_SHARDS, auditDayPartition, keys } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { insertUser, searchItemKeys } from '../../functions/lib/users';
import { program } from '../../functions/program/content';
import { discardActivityStream, drainActivityStream } from '../../infra/local/activity-stream';
import type { AuditEntry, ListPage } from '../../shared/admin-types';
import { type ApiClient, codeIn, latestEmail, useApi } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';
import { doneBody, setUserFields } from './program-helpers';

/**
 * The rebuild of what the table's stream derives (functions/admin/derived-data-rebuild.ts,
 * docs/runbook.md "Rebuilding derived data") after an outage of the activity aggregator longer
 * than the stream keeps its records: learners sign in (one of them also yesterday, one with paused
 * reminders), one saves a task two days ago, an admin locks an account whose request stopped
 * before putting the entry's references; then the stream's records are lost (read past, never
 * aggregated). The rebuild puts back the sign-in entries (seen in the audit log's filters), the
 * references, the activity markers and daily active counts, the search items' last-active day and
 * the resumed reminders; a second run writes nothing; a run stopped mid-way resumes from its
 * checkpoint. This file has its own table: the data below is all there is.
 */
const api = useApi();
const PASSWORD = 'amber lantern quietly';
const DAY = 24 * 3600 * 1000;
const TODAY = dayOf(new Date());
const YESTERDAY = dayOf(new Date(Date.now() - DAY));
const TWO_DAYS_AGO = dayOf(new Date(Date.now() - 2 * DAY));
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/141.0';

let adminClient: ApiClient;
const people: Record<'twice' | 'once' | 'again' | 'paused' | 'tasks' | 'locked', UserRecord> = {} as never;
const dailyBefore = new Map<string, number>();

/** A sign-in through the API (password, then the emailed code), `offsetMs` from now on the product's clock. */
async function signInForReal(user: UserRecord, offsetMs = 0) {
  setClockSource(() => Date.now() + offsetMs);
  try {
    const client = api.client({ userAgent: BROWSER });
    const login = await client.post('/api/auth/login', { email: user.email, password: PASSWORD });
    expect(login.status).toBe(200);
    const code = codeIn(await latestEmail(user.email, /login code/i));
    expect((await client.post('/api/auth/verify-2fa', { email: user.email, code, challenge_id: login.body.challenge_id })).status).toBe(
      200,
    );
  } finally {
    setClockSource();
  }
}

const get = async (key: Record<string, string>) => (await db().send(new GetCommand({ TableName: tableName(), Key: key }))).Item;
const dailyActive = async (day: string) => Number((await readDayCounters('DAILYACTIVE', day, day)).get(day)?.count ?? 0);
const signInEntries = async () =>
  (await adminClient.get<ListPage<AuditEntry>>('/api/admin/audit-logs?action=auth.login&page_size=100')).body.items;
const auditTab = async (userId: string) =>
  (await adminClient.get<ListPage<AuditEntry>>(`/api/admin/users/${userId}/audit-logs`)).body.items.map((entry) => entry.action);

/** Every item of the test's table but the jobs' checkpoints (a test-only Scan, through a raw client: the app's client forbids Scan). */
async function tableItems(): Promise<Map<string, Record<string, unknown>>> {
  const client = new DynamoDBClient({
    endpoint: process.env.DYNAMODB_ENDPOINT,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const items = new Map<string, Record<string, unknown>>();
  for await (const page of paginateScan({ client }, { TableName: tableName() }))
    for (const item of (page.Items ?? []).map((raw) => unmarshall(raw)))
      if (!String(item.pk).startsWith('JOB#')) items.set(`${String(item.pk)} ${String(item.sk)}`, item);
  client.destroy();
  return items;
}

beforeAll(async () => {
  const admin = await createTestUser({ role: 'admin' });
  adminClient = api.client();
  await signIn(adminClient, admin);
  const password_hash = await hashPassword(PASSWORD);
  for (const name of ['twice', 'once', 'again', 'paused', 'tasks', 'locked'] as const)
    people[name] = await insertUser({
      email: `rebuild-${name}-${randomUUID().slice(0, 6)}@example.com`,
      first_name: name,
      last_name: 'Learner',
      password_hash,
      verified: true,
    });
  // what happened before the outage is aggregated as usual
  await signInForReal(people.again, -2 * DAY);
  await setUserFields(people.paused.id, { reminders_paused_at: new Date(Date.now() - 3 * DAY).toISOString() });
  await drainActivityStream();
  for (const day of [TWO_DAYS_AGO, YESTERDAY, TODAY]) dailyBefore.set(day, await dailyActive(day));

  // ---- the outage: none of this reaches the aggregator ----
  await signInForReal(people.twice, -DAY);
  await signInForReal(people.twice);
  for (const name of ['once', 'again', 'paused'] as const) await signInForReal(people[name]);
  // a task saved two days ago, in a session whose item is gone since (a session written before items were kept longer)
  setClockSource(() => Date.now() - 2 * DAY);
  try {
    const client = api.client();
    await signIn(client, people.tasks);
    expect((await client.post('/api/enroll')).status).toBe(200);
    const module = program().modules[0];
    const task = (
      await client.get<{ module: { tasks: Array<{ task_id: string; type: string; min_items?: number }> } }>(`/api/modules/${module.slug}`)
    ).body.module.tasks[0];
    expect((await client.put(`/api/modules/${module.slug}/tasks/${task.task_id}`, doneBody(task as never))).status).toBe(200);
  } finally {
    setClockSource();
  }
  const sessions = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :s)',
      ExpressionAttributeValues: { ':pk': keys.user(people.tasks.id).pk, ':s': 'SESSION#' },
    }),
  );
  for (const item of sessions.Items ?? [])
    await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: String(item.pk), sk: String(item.sk) } }));
  // an admin's change, committed; its request stopped before it put the entry's references
  expect((await adminClient.post(`/api/admin/users/${people.locked.id}/lock`)).status).toBe(200);
  const entries = await Promise.all(
    Array.from({ length: AUDIT_SHARDS }, (_, shard) =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': auditDayPartition(TODAY, shard) },
        }),
      ),
    ),
  );
  const lock = entries
    .flatMap((page) => page.Items ?? [])
    .find((item) => item.action === 'admin.user.lock' && item.entity_id === people.locked.id)!;
  for (const ref of auditRefItemsOf(lock)) await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: ref.pk, sk: ref.sk } }));
  // past the stream's 24 hours: its records are gone unread
  expect(await discardActivityStream()).toBeGreaterThan(0);
}, 120_000);

describe('after an outage of the stream longer than its 24 hours', () => {
  it('lacks what the stream would have written', async () => {
    expect((await signInEntries()).filter((entry) => entry.entity_id !== people.again.id)).toEqual([]);
    expect(await auditTab(people.locked.id)).not.toContain('admin.user.lock');
    expect(await get(keys.activity(TODAY, people.once.id))).toBeUndefined();
    expect(await dailyActive(TODAY)).toBe(dailyBefore.get(TODAY));
    expect(await get(keys.user(people.paused.id))).toHaveProperty('reminders_paused_at');
  });

  it('the rebuild puts back the sign-in entries, the references, the activity days, the search items and the resumed reminders', async () => {
    const progress: RebuildProgress[] = [];
    capacityMeter.reset();
    const result = await rebuildDerivedData({ from: TWO_DAYS_AGO, to: TODAY, onProgress: (step) => progress.push(step) });
    const units = capacityMeter.snapshot();
    console.log(`rebuild of ${result.counts.accounts} accounts over 3 days: ${JSON.stringify(result.counts)} ${JSON.stringify(units)}`);
    expect(result.resumed).toBe(false);
    expect(result.counts).toMatchObject({
      accounts: 7,
      accounts_in_window: 5,
      // twice (yesterday and today), once, again, paused; `again`'s earlier one was written by the stream
      sign_in_entries: 5,
      // the lock entry's four references: entity, actor, action, actor domain
      audit_references: 4,
      // twice ×2, once, again, paused, tasks (two days ago, from its task alone)
      activity_markers: 6,
      // three search items each of the four accounts active today and of `tasks`
      search_items: 15,
      reminders_resumed: 1,
    });
    expect(progress.map((step) => step.phase)).toEqual(expect.arrayContaining(['audit', 'accounts']));

    const entries = await signInEntries();
    const whose = (id: string) => entries.filter((entry) => entry.entity_id === id);
    expect(
      whose(people.twice.id)
        .map((entry) => entry.created_at?.slice(0, 10))
        .sort(),
    ).toEqual([YESTERDAY, TODAY]);
    for (const name of ['once', 'paused'] as const) expect(whose(people[name].id)).toHaveLength(1);
    expect(whose(people.again.id)).toHaveLength(2);
    expect(whose(people.once.id)[0]).toMatchObject({ action: 'auth.login', actor_email: people.once.email, user_agent: BROWSER });
    expect(await auditTab(people.locked.id)).toContain('admin.user.lock');
    expect(await auditTab(people.twice.id)).toContain('auth.login');

    for (const [name, days] of [
      ['twice', [YESTERDAY, TODAY]],
      ['once', [TODAY]],
      ['tasks', [TWO_DAYS_AGO]],
    ] as const)
      for (const day of days)
        expect(await get(keys.activity(day, people[name].id)), `${name} ${day}`).toMatchObject({ user_id: people[name].id, day });
    expect(await dailyActive(TODAY)).toBe(dailyBefore.get(TODAY)! + 4);
    expect(await dailyActive(YESTERDAY)).toBe(dailyBefore.get(YESTERDAY)! + 1);
    expect(await dailyActive(TWO_DAYS_AGO)).toBe(dailyBefore.get(TWO_DAYS_AGO)! + 1);
    for (const key of searchItemKeys(people.once)) expect((await get(key))?.last_active_day).toBe(TODAY);
    for (const key of searchItemKeys(people.tasks)) expect((await get(key))?.last_active_day).toBe(TWO_DAYS_AGO);
    const paused = await get(keys.user(people.paused.id));
    expect(paused).not.toHaveProperty('reminders_paused_at');
    expect(paused).toHaveProperty('reminders_resumed_at');
    // the last-active histogram lost its moves: the reconciliation at the end saw them and, the outage
    // being their known cause, corrected them at once
    expect(result.reconciliation.drift[`LASTACTIVE/${TODAY}/count`]).toBe(4);
    expect(result.reconciliation.corrected).toMatchObject({ [`LASTACTIVE/${TODAY}/count`]: 4 });
    expect(result.reconciliation.drift[`DAILYACTIVE/${TODAY}/count`]).toBeUndefined();
  });

  it('a second run writes nothing but its checkpoints, and its reconciliation finds nothing left to correct', async () => {
    const before = await tableItems();
    const writesAtStep: number[] = [];
    capacityMeter.reset();
    const again = await rebuildDerivedData({
      from: TWO_DAYS_AGO,
      to: TODAY,
      onProgress: () => writesAtStep.push(capacityMeter.snapshot().write),
    });
    expect(again.counts).toMatchObject({
      audit_references: 0,
      sign_in_entries: 0,
      activity_markers: 0,
      search_items: 0,
      reminders_resumed: 0,
    });
    // up to its last page: the checkpoint's start, one update a page and one a phase, one write unit each
    expect(writesAtStep.at(-1)).toBeLessThanOrEqual(writesAtStep.length + 2);
    expect(again.reconciliation.drift).toEqual({});
    expect(again.reconciliation.corrected).toEqual({});
    const after = await tableItems();
    const changed = [...after].filter(([key, item]) => JSON.stringify(item) !== JSON.stringify(before.get(key))).map(([key]) => key);
    // no counter, marker, entry or reference: only the jobs' own records
    expect(changed.filter((key) => !key.startsWith('JOB#'))).toEqual([]);
    expect([...before.keys()].filter((key) => !after.has(key))).toEqual([]);
  });

  it('resumes from its checkpoint after a crash, with the counts of the pages done before', async () => {
    const window = { from: YESTERDAY, to: TODAY, pageSize: 2 };
    // lose the two sign-ins of `once` and `paused` again, as another outage would
    for (const name of ['once', 'paused'] as const) {
      const entry = (await signInEntries()).find((item) => item.entity_id === people[name].id)!;
      const stored = await get(keys.audit(entry.created_at!, entry.id));
      for (const item of [stored!, ...auditRefItemsOf(stored!)])
        await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: item.pk as string, sk: item.sk as string } }));
    }
    let pages = 0;
    await expect(
      rebuildDerivedData({
        ...window,
        onProgress: (step) => {
          if (step.phase === 'accounts' && ++pages === 2) throw new Error('the laptop went to sleep');
        },
      }),
    ).rejects.toThrow('went to sleep');
    const checkpoint = await get(keys.rebuildCheckpoint(YESTERDAY, TODAY));
    expect(checkpoint).toMatchObject({ done: false, position: { phase: 'accounts' }, counts: { accounts: 4 } });
    const resumed = await rebuildDerivedData(window);
    expect(resumed.resumed).toBe(true);
    expect(resumed.counts.accounts).toBe(7);
    expect(resumed.counts.sign_in_entries).toBe(2);
    expect((await signInEntries()).filter((entry) => entry.entity_id === people.once.id)).toHaveLength(1);
    expect(await get(keys.rebuildCheckpoint(YESTERDAY, TODAY))).toMatchObject({ done: true });
    // a finished window's next run starts again
    expect((await rebuildDerivedData(window)).resumed).toBe(false);
  });

  it('refuses a malformed, reversed, future or too long window before reading anything', async () => {
    await expect(rebuildDerivedData({ from: '2026-13-01', to: TODAY })).rejects.toThrow(/two days YYYY-MM-DD/);
    await expect(rebuildDerivedData({ from: TODAY, to: YESTERDAY })).rejects.toThrow(/starts after it ends/);
    await expect(rebuildDerivedData({ from: TODAY, to: dayOf(new Date(Date.now() + DAY)) })).rejects.toThrow(/future/);
    await expect(rebuildDerivedData({ from: dayOf(new Date(Date.now() - 40 * DAY)), to: TODAY })).rejects.toThrow(/at most 31/);
  });
});
