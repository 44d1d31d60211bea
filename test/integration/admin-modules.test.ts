import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { readStats } from '../../functions/lib/stats';
import type { UserRecord } from '../../functions/lib/user-record';
import { program } from '../../functions/program/content';
import { percentComplete } from '../../functions/program/progress';
import type { AdminUserDetail, AuditEntry, ListPage } from '../../shared/admin-types';
import type { moduleOverride } from '../../shared/api-schemas/admin';
import type { DashboardState } from '../../shared/program-types';
import { useApi, type ApiClient } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';

const api = useApi();
const content = program();
const [m1, m2, m3] = content.modules;
const M = content.modules.length;
let adminClient: ApiClient;

beforeAll(async () => {
  const admin: UserRecord = await createTestUser({ role: 'admin' });
  adminClient = api.client();
  await signIn(adminClient, admin);
});

async function enrolledLearner() {
  const user = await createTestUser();
  const client = api.client();
  await signIn(client, user);
  expect((await client.post('/api/enroll')).status).toBe(200);
  return { user, client };
}

const override = (action: string, body: unknown) => adminClient.post<z.infer<typeof moduleOverride>>(`/api/admin/modules/${action}`, body);
const stateOf = async (client: ApiClient, moduleId: string) =>
  (await client.get<DashboardState>('/api/dashboard/state')).body.grid
    .flatMap((w: { modules: Array<{ module_id: string; state: string }> }) => w.modules)
    .find((m: { module_id: string }) => m.module_id === moduleId)?.state;

describe('module overrides', () => {
  it("refuses to lock the learner's only open module (it would open again at once) and leaves it open", async () => {
    const { user, client } = await enrolledLearner();
    const refused = await override('lock', { user_id: user.id, module_id: m1.module_id });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('only_open_module');
    expect(refused.body.message).toMatch(/only open module/);
    expect(await stateOf(client, m1.module_id)).toBe('open');
  });

  it('force-completes the open module (the next one opens), reopens, locks and unlocks, as the learner sees it', async () => {
    const { user, client } = await enrolledLearner();
    const before = await readStats();

    const done = await override('force-complete', { user_id: user.id, module_id: m1.module_id });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ ok: true, message: 'Module marked completed.', percent_complete: percentComplete(1, M) });
    expect(done.body.module).toMatchObject({ module_id: m1.module_id, title: m1.title, week_no: 1, module_number: 1, status: 'completed' });
    expect(done.body.module.completed_at).toBeTruthy();
    expect(await stateOf(client, m2.module_id)).toBe('open');
    expect((await client.get('/api/dashboard')).body.percent_complete).toBe(percentComplete(1, M));
    let stats = await readStats();
    expect(stats.modules_completed_total - before.modules_completed_total).toBe(1);
    expect(Math.round((stats.enrollment_percent_sum - before.enrollment_percent_sum) * 10) / 10).toBe(percentComplete(1, M));

    const again = await override('force-complete', { user_id: user.id, module_id: m1.module_id });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'already_completed', message: 'Module is already completed.' });

    const reopened = await override('reopen', { user_id: user.id, module_id: m1.module_id });
    expect(reopened.body).toMatchObject({
      ok: true,
      message: 'Module reopened.',
      percent_complete: 0,
      module: { status: 'open', completed_at: null },
    });
    expect(await stateOf(client, m1.module_id)).toBe('open');
    stats = await readStats();
    expect(stats.modules_completed_total).toBe(before.modules_completed_total);
    expect((await override('reopen', { user_id: user.id, module_id: m1.module_id })).body.error).toBe('not_completed');

    const locked = await override('lock', { user_id: user.id, module_id: m2.module_id });
    expect(locked.body).toMatchObject({ ok: true, message: 'Module locked.', module: { status: 'locked' } });
    expect(await stateOf(client, m2.module_id)).toBe('locked');
    expect((await override('lock', { user_id: user.id, module_id: m2.module_id })).body).toEqual({
      error: 'already_locked',
      message: 'Module is already locked.',
    });

    const unlocked = await override('unlock', { user_id: user.id, module_id: m3.module_id });
    expect(unlocked.body).toMatchObject({ ok: true, message: 'Module unlocked.', module: { status: 'open' } });
    expect(await stateOf(client, m3.module_id)).toBe('open');
    expect((await override('unlock', { user_id: user.id, module_id: m3.module_id })).body.error).toBe('already_open');

    // the drawer shows the same states
    const detail = (await adminClient.get<AdminUserDetail>(`/api/admin/users/${user.id}`)).body;
    expect(detail.enrollments).toHaveLength(1);
    const rows = detail.enrollments[0].modules as Array<{ module_id: string; status: string }>;
    expect(rows.map((r) => r.status).slice(0, 3)).toEqual(['open', 'locked', 'open']);

    // Filed under the learner: the overrides show in that user's Audit tab.
    const audit = await adminClient.get<ListPage<AuditEntry>>(`/api/admin/users/${user.id}/audit-logs`);
    expect(audit.body.items.filter((e) => e.action?.startsWith('admin.module.')).map((e) => e.action)).toEqual([
      'admin.module.unlock',
      'admin.module.lock',
      'admin.module.reopen',
      'admin.module.force_complete',
    ]);
    expect(audit.body.items[3]).toMatchObject({
      entity_type: 'user',
      entity_id: user.id,
      old_values: { status: 'open', module_id: m1.module_id, enrollment_id: detail.enrollments[0].id },
      new_values: { status: 'completed' },
    });
  });

  it('answers missing_fields and not_found', async () => {
    const { user } = await enrolledLearner();
    const missing = await override('lock', { user_id: user.id });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'missing_fields', fields: ['module_id'] });
    expect((await override('unlock', {})).body).toEqual({ error: 'missing_fields', fields: ['user_id', 'module_id'] });
    // an id of another shape than the product issues names nothing: refused before any read
    expect((await override('unlock', { user_id: 'nobody', module_id: m1.module_id })).body).toEqual({
      error: 'invalid_request',
      fields: ['user_id'],
    });
    expect((await override('unlock', { user_id: randomUUID(), module_id: m1.module_id })).status).toBe(404);
    expect((await override('unlock', { user_id: user.id, module_id: 'no-such-module' })).status).toBe(404);
    const notEnrolled = await createTestUser();
    expect((await override('force-complete', { user_id: notEnrolled.id, module_id: m1.module_id })).body).toEqual({ error: 'not_found' });
  });
});
