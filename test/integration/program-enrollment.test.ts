import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../functions/lib/db';
import { readStats } from '../../functions/lib/stats';
import { keys } from '../../functions/lib/table';
import { getUserById } from '../../functions/lib/users';
import { program } from '../../functions/program/content';
import type { DashboardState, UserProgress } from '../../shared/program-types';
import { useApi } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';

const api = useApi();
const content = program();

async function learnerClient() {
  const user = await createTestUser();
  const client = api.client();
  await signIn(client, user);
  return { user, client };
}

describe('POST /api/enroll', () => {
  it('enrolls once: a second call answers the same message, and stats count one enrollment', async () => {
    const { user, client } = await learnerClient();
    const before = await readStats();
    const first = await client.post('/api/enroll');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ message: 'Welcome to the 4-Week Career Program!' });
    const again = await client.post('/api/enroll');
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ message: 'Welcome to the 4-Week Career Program!' });

    const after = await readStats();
    expect(after.enrollments_total - before.enrollments_total).toBe(1);
    expect(after.modules_total - before.modules_total).toBe(content.modules.length);

    const enrollment = await db().send(new GetCommand({ TableName: tableName(), Key: keys.enrollment(user.id, content.id) }));
    expect(enrollment.Item).toMatchObject({
      status: 'active',
      percent_complete: 0,
      completed_count: 0,
      module_count: content.modules.length,
      open_module_id: content.modules[0].module_id,
    });
    const enrolledAt: unknown = enrollment.Item!.enrolled_at;
    expect(enrolledAt).toBeTypeOf('string');
    expect(Date.parse(enrolledAt as string)).not.toBeNaN();
    expect((await getUserById(user.id))?.last_enrollment_at).toBe(enrolledAt);
    const me = await client.get<{ progress: UserProgress }>('/api/auth/me');
    // `expect.objectContaining` is typed `any`: held as `unknown` so the object it goes into stays type-checked.
    const firstModuleOpen: unknown = expect.objectContaining({
      module_id: content.modules[0].module_id,
      slug: content.modules[0].slug,
      state: 'open',
      week_number: 1,
      position: 1,
    });
    expect(me.body.progress).toEqual({
      state: 'active',
      percent_complete: 0,
      program_title: '4-Week Career Program',
      open_module: firstModuleOpen,
    });
  });

  it('enrolls once under concurrent calls', async () => {
    const { client } = await learnerClient();
    const before = await readStats();
    const results = await Promise.all([client.post('/api/enroll'), client.post('/api/enroll'), client.post('/api/enroll')]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await readStats()).enrollments_total - before.enrollments_total).toBe(1);
  });

  it('needs a session', async () => {
    const response = await api.client().post('/api/enroll');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'unauthorized' });
  });
});

describe('GET /api/dashboard and /api/dashboard/state', () => {
  it('answers 401 without a session and 404 not_enrolled before enrolling', async () => {
    expect((await api.client().get('/api/dashboard')).status).toBe(401);
    expect((await api.client().get('/api/dashboard/state')).status).toBe(401);
    const { client } = await learnerClient();
    for (const path of ['/api/dashboard', '/api/dashboard/state']) {
      const response = await client.get(path);
      expect(response.status, path).toBe(404);
      expect(response.body).toEqual({ error: 'not_enrolled' });
    }
  });

  it('has the documented shapes after enrolling: first module open, the rest locked', async () => {
    const { client } = await learnerClient();
    await client.post('/api/enroll');

    const summary = await client.get('/api/dashboard');
    expect(summary.status).toBe(200);
    expect(summary.body).toEqual({ percent_complete: 0, program_title: '4-Week Career Program' });

    const state = await client.get<DashboardState>('/api/dashboard/state');
    expect(state.status).toBe(200);
    expect(Object.keys(state.body).sort()).toEqual(['grid', 'open_module', 'percent_complete']);
    expect(state.body.percent_complete).toBe(0);
    expect(state.body.grid.map((week: { week_number: number }) => week.week_number)).toEqual([1, 2, 3, 4]);
    const first = content.modules[0];
    expect(state.body.grid[0].modules[0]).toEqual({
      module_id: first.module_id,
      title: first.title,
      position: 1,
      state: 'open',
      slug: first.slug,
    });
    expect(state.body.open_module).toEqual({
      module_id: first.module_id,
      title: first.title,
      position: 1,
      state: 'open',
      slug: first.slug,
      week_number: 1,
    });
    const states = state.body.grid.flatMap((week: { modules: Array<{ state: string }> }) => week.modules.map((m) => m.state));
    expect(states).toEqual(['open', ...Array<string>(content.modules.length - 1).fill('locked')]);
    for (const week of state.body.grid) {
      expect(week.modules.map((m: { position: number }) => m.position)).toEqual(week.modules.map((_: unknown, i: number) => i + 1));
      for (const module of week.modules) expect(Object.keys(module).sort()).toEqual(['module_id', 'position', 'slug', 'state', 'title']);
    }
  });
});

describe('notification preferences', () => {
  it('default to daily, save weekly, and refuse anything else with 400 invalid_reminder_frequency', async () => {
    const { user, client } = await learnerClient();
    expect((await client.get('/api/settings/notifications')).body).toEqual({
      reminder_frequency: 'daily',
      time_zone: 'UTC',
      reminders_paused: false,
    });

    const saved = await client.post('/api/settings/notifications', { reminder_frequency: 'weekly' });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ reminder_frequency: 'weekly', time_zone: 'UTC', reminders_paused: false });
    expect((await client.get('/api/settings/notifications')).body).toEqual({
      reminder_frequency: 'weekly',
      time_zone: 'UTC',
      reminders_paused: false,
    });
    expect((await getUserById(user.id))?.reminder_frequency).toBe('weekly');

    for (const body of [{ reminder_frequency: 'monthly' }, {}, { reminder_frequency: 7 }, { reminder_frequency: 'Daily' }]) {
      const refused = await client.post('/api/settings/notifications', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body).toEqual({ error: 'invalid_reminder_frequency' });
    }
    expect((await client.get('/api/settings/notifications')).body).toEqual({
      reminder_frequency: 'weekly',
      time_zone: 'UTC',
      reminders_paused: false,
    });
  });

  it('moves an enrolled learner to the weekly reminder partition', async () => {
    const { user, client } = await learnerClient();
    await client.post('/api/enroll');
    const read = async () => (await db().send(new GetCommand({ TableName: tableName(), Key: keys.enrollment(user.id, content.id) }))).Item!;
    expect((await read()).gsi3pk).toMatch(/^REMIND#daily#\d{2}#\d$/);
    await client.post('/api/settings/notifications', { reminder_frequency: 'weekly' });
    expect((await read()).gsi3pk).toMatch(/^REMIND#weekly#[0-6]#\d{2}#\d$/);
    await client.post('/api/settings/notifications', { reminder_frequency: 'daily' });
    expect((await read()).gsi3pk).toMatch(/^REMIND#daily#\d{2}#\d$/);
  });

  it('needs a session', async () => {
    expect((await api.client().get('/api/settings/notifications')).status).toBe(401);
    expect((await api.client().post('/api/settings/notifications', { reminder_frequency: 'daily' })).status).toBe(401);
  });
});
