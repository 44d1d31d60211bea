import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../functions/lib/db';
import { funnelField } from '../../functions/lib/funnel';
import { statsUpdate } from '../../functions/lib/stats';
import { keys } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { program } from '../../functions/program/content';
import { backfillFunnel, backfillFunnelFor } from '../../functions/program/funnel-backfill';
import { stalledUsers } from '../../functions/admin/stalled-users';
import type { AdminSummary, AdminUserListItem } from '../../shared/admin-types';
import { useApi, type ApiClient } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';
import { finishModule, setUserFields } from './program-helpers';
import { hardDeleteToEnd } from '../helpers/hard-delete';

/**
 * The admin summary's module funnel (functions/lib/funnel.ts), kept by the writes: enrolling,
 * completing a module, admin overrides, the first visit of an enrollment written before the
 * funnel existed, a hard delete. Every expected count is worked out by hand.
 */
const api = useApi();
const content = program();
const [m0, m1, m2, m3] = content.modules;
let adminClient: ApiClient;

beforeAll(async () => {
  const admin = await createTestUser({ role: 'admin' });
  adminClient = api.client();
  await signIn(adminClient, admin);
});

/** The funnel as `{ slug: [completed, in_progress] }`, modules without learners left out. */
async function funnel(): Promise<Record<string, [number, number]>> {
  const response = await adminClient.get<AdminSummary>('/api/admin/summary');
  expect(response.status).toBe(200);
  const rows = response.body.funnel;
  expect(rows.map((row) => row.module_id)).toEqual(content.modules.map((module) => module.module_id));
  expect(rows[0]).toMatchObject({ slug: m0.slug, title: m0.title, week_number: m0.week_number });
  return Object.fromEntries(
    rows.filter((row) => row.completed || row.in_progress).map((row) => [row.slug, [row.completed, row.in_progress]]),
  );
}

/** `GET /api/admin/users?stalled_at=<module id>`: the ids listed (one page) and the total. */
async function stalledAt(moduleId: string): Promise<{ ids: string[]; total: number }> {
  const response = await adminClient.get<{ items: AdminUserListItem[]; total: number; has_next: boolean }>(
    `/api/admin/users?stalled_at=${encodeURIComponent(moduleId)}`,
  );
  expect(response.status).toBe(200);
  expect(response.body.has_next).toBe(false);
  return { ids: response.body.items.map((item) => item.id).sort(), total: response.body.total };
}

async function learner(): Promise<{ user: UserRecord; client: ApiClient }> {
  const user = await createTestUser();
  const client = api.client();
  await signIn(client, user);
  return { user, client };
}

describe('the admin summary funnel', () => {
  let a: { user: UserRecord; client: ApiClient };
  let b: { user: UserRecord; client: ApiClient };

  /** Makes B's enrollment look as it did before the funnel existed: no lists, not in the counters. */
  async function forgetFunnelOfB() {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.enrollment(b.user.id, content.id),
        UpdateExpression: 'REMOVE funnel_completed, funnel_in_progress',
      }),
    );
    await db().send(new UpdateCommand(statsUpdate({ [funnelField.inProgress(m0.module_id)]: -1 })!.Update as never));
  }

  it('starts empty for every module, in program order', async () => {
    expect(await funnel()).toEqual({});
  });

  it('enrolling puts the first module in progress; completing it moves the learner to the next', async () => {
    a = await learner();
    expect((await a.client.post('/api/enroll')).status).toBe(200);
    expect(await funnel()).toEqual({ [m0.slug]: [0, 1] });
    await finishModule(a.client, m0.slug);
    expect(await funnel()).toEqual({ [m0.slug]: [1, 0], [m1.slug]: [0, 1] });
    b = await learner();
    expect((await b.client.post('/api/enroll')).status).toBe(200);
    expect(await funnel()).toEqual({ [m0.slug]: [1, 1], [m1.slug]: [0, 1] });
    // each row's list holds exactly the learners its in-progress count counts
    expect(await stalledAt(m0.module_id)).toEqual({ ids: [b.user.id], total: 1 });
    expect(await stalledAt(m1.module_id)).toEqual({ ids: [a.user.id], total: 1 });
    expect(await stalledAt(m2.module_id)).toEqual({ ids: [], total: 0 });
  });

  it('follows the admin module overrides', async () => {
    const override = (action: string, moduleId: string) =>
      adminClient.post(`/api/admin/modules/${action}`, { user_id: a.user.id, module_id: moduleId });
    expect((await override('force-complete', m1.module_id)).status).toBe(200);
    expect(await funnel()).toEqual({ [m0.slug]: [1, 1], [m1.slug]: [1, 0], [m2.slug]: [0, 1] });
    expect((await override('unlock', m3.module_id)).status).toBe(200);
    expect(await funnel()).toEqual({ [m0.slug]: [1, 1], [m1.slug]: [1, 0], [m2.slug]: [0, 1], [m3.slug]: [0, 1] });
    expect((await override('reopen', m0.module_id)).status).toBe(200);
    expect(await funnel()).toEqual({ [m0.slug]: [0, 2], [m1.slug]: [1, 0], [m2.slug]: [0, 1], [m3.slug]: [0, 1] });
    // a refused override changes nothing
    expect((await override('reopen', m0.module_id)).status).toBe(409);
    expect(await funnel()).toEqual({ [m0.slug]: [0, 2], [m1.slug]: [1, 0], [m2.slug]: [0, 1], [m3.slug]: [0, 1] });
    // a learner with several modules open is listed once, at the first of them
    expect((await stalledAt(m0.module_id)).ids).toEqual([a.user.id, b.user.id].sort());
    expect((await stalledAt(m2.module_id)).ids).toEqual([]);
  });

  it('counts an enrollment written before the funnel on the learner’s next visit', async () => {
    await forgetFunnelOfB();
    expect(await funnel()).toEqual({ [m0.slug]: [0, 1], [m1.slug]: [1, 0], [m2.slug]: [0, 1], [m3.slug]: [0, 1] });
    expect((await b.client.get('/api/dashboard')).status).toBe(200);
    expect(await funnel()).toEqual({ [m0.slug]: [0, 2], [m1.slug]: [1, 0], [m2.slug]: [0, 1], [m3.slug]: [0, 1] });
    // counted once: a second visit adds nothing
    expect((await b.client.get('/api/dashboard')).status).toBe(200);
    expect(await funnel()).toEqual({ [m0.slug]: [0, 2], [m1.slug]: [1, 0], [m2.slug]: [0, 1], [m3.slug]: [0, 1] });
  });

  it('the backfill counts an enrollment written before the funnel once, and skips it on a rerun', async () => {
    await forgetFunnelOfB();
    expect(await funnel()).toEqual({ [m0.slug]: [0, 1], [m1.slug]: [1, 0], [m2.slug]: [0, 1], [m3.slug]: [0, 1] });
    expect(await backfillFunnelFor(b.user.id)).toBe('counted');
    expect(await backfillFunnelFor(b.user.id)).toBe('already');
    expect(await backfillFunnelFor('nobody')).toBe('none');
    expect(await funnel()).toEqual({ [m0.slug]: [0, 2], [m1.slug]: [1, 0], [m2.slug]: [0, 1], [m3.slug]: [0, 1] });
  });

  it('the backfill walk reads every account through the status index, page by page, and resumes', async () => {
    await forgetFunnelOfB();
    const positions: unknown[] = [];
    const totals = await backfillFunnel({ status: 0 }, (_, next) => positions.push(next), 1);
    // accounts: the admin, A, B (active); pages of one account, then the empty locked and deleted partitions
    expect(totals).toEqual({ counted: 1, already: 1, none: 1 });
    expect(positions.length).toBeGreaterThanOrEqual(4);
    expect(await funnel()).toEqual({ [m0.slug]: [0, 2], [m1.slug]: [1, 0], [m2.slug]: [0, 1], [m3.slug]: [0, 1] });
    // resuming from the last position reads nothing more
    expect(await backfillFunnel(positions.at(-1) as never)).toEqual({ counted: 0, already: 0, none: 0 });
  });

  it('never counts a staff preview', async () => {
    const staff = await createTestUser({ role: 'admin' });
    const client = api.client();
    await signIn(client, staff);
    expect((await client.post('/api/enroll', { preview: true })).status).toBe(200);
    await finishModule(client, m0.slug);
    expect(await funnel()).toEqual({ [m0.slug]: [0, 2], [m1.slug]: [1, 0], [m2.slug]: [0, 1], [m3.slug]: [0, 1] });
  });

  it('takes a hard-deleted learner out of every module they were counted in', async () => {
    expect((await adminClient.post(`/api/admin/users/${a.user.id}/soft-delete`, { reason: 'test' })).status).toBe(200);
    // soft-deleted learners stay counted (as in the other enrollment totals) until the hard delete
    expect(await funnel()).toEqual({ [m0.slug]: [0, 2], [m1.slug]: [1, 0], [m2.slug]: [0, 1], [m3.slug]: [0, 1] });
    await setUserFields(a.user.id, { deleted_at: new Date(Date.now() - 31 * 24 * 3600 * 1000).toISOString() });
    expect([200, 202]).toContain((await hardDeleteToEnd(adminClient, a.user)).status);
    expect(await funnel()).toEqual({ [m0.slug]: [0, 1] });
  });

  it('lists the learners stalled at a module a page at a time, and moves one who completes it', async () => {
    // left after the hard delete: B in progress at the first module; the staff preview is never listed
    const c = await learner();
    const d = await learner();
    for (const { client } of [c, d]) expect((await client.post('/api/enroll')).status).toBe(200);
    expect(await funnel()).toEqual({ [m0.slug]: [0, 3] });
    const everyone = [b.user.id, c.user.id, d.user.id].sort();
    const first = await stalledUsers(m0.module_id, {}, 1, 2);
    expect(first).toMatchObject({ has_next: true, total: 3, total_is_estimate: false });
    const second = await stalledUsers(m0.module_id, { cursor: first.next_cursor! }, 2, 2);
    expect(second).toMatchObject({ has_next: false, total: 3, next_cursor: null });
    expect([...first.items, ...second.items].map((item) => item.id).sort()).toEqual(everyone);

    await finishModule(c.client, m0.slug);
    expect(await funnel()).toEqual({ [m0.slug]: [1, 2], [m1.slug]: [0, 1] });
    expect(await stalledAt(m0.module_id)).toEqual({ ids: [b.user.id, d.user.id].sort(), total: 2 });
    expect(await stalledAt(m1.module_id)).toEqual({ ids: [c.user.id], total: 1 });
  });

  it('refuses an unknown module and a stalled list combined with a search or a cohort', async () => {
    const unknown = await adminClient.get('/api/admin/users?stalled_at=no-such-module');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'unknown_module' });
    for (const other of ['query=ann', 'filter=active7d']) {
      const combined = await adminClient.get(`/api/admin/users?stalled_at=${m0.module_id}&${other}`);
      expect(combined.status).toBe(400);
      expect(combined.body).toMatchObject({ error: 'filter_not_combinable' });
    }
  });
});
