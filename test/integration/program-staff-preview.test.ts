import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../functions/lib/db';
import { readStats } from '../../functions/lib/stats';
import { keys } from '../../functions/lib/table';
import { program } from '../../functions/program/content';
import { useApi } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';
import { finishModule } from './program-helpers';

const api = useApi();
const content = program();

/** The learner metrics an admin's preview must never move. */
const metricFields = [
  'enrollments_total',
  'enrollment_percent_sum',
  'modules_completed_total',
  'modules_total',
  'week1_on_time_total',
] as const;
const metrics = async () => {
  const stats = await readStats();
  return Object.fromEntries(metricFields.map((field) => [field, stats[field] ?? 0]));
};

describe('staff preview enrollment (POST /api/enroll by an admin)', () => {
  it('refuses to enroll an admin who did not choose to preview, with 409 preview_required', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const client = api.client();
    await signIn(client, admin);
    const response = await client.post('/api/enroll');
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ error: 'preview_required' });
    expect((await client.get('/api/dashboard')).status).toBe(404);
    const item = await db().send(new GetCommand({ TableName: tableName(), Key: keys.enrollment(admin.id, content.id) }));
    expect(item.Item).toBeUndefined();
  });

  it('enrolls an admin who asks to preview, and neither that nor progress moves the learner metrics', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const client = api.client();
    await signIn(client, admin);
    const before = await metrics();
    const response = await client.post('/api/enroll', { preview: true });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe('Welcome to the 4-Week Career Program!');
    const item = (await db().send(new GetCommand({ TableName: tableName(), Key: keys.enrollment(admin.id, content.id) }))).Item!;
    expect(item.staff).toBe(true);
    // No reminders and not in the week-1 cohort.
    expect(item.gsi3pk).toBeUndefined();
    expect(item.gsi4pk).toBeUndefined();

    await finishModule(client, content.modules[0].slug);
    expect((await client.get('/api/dashboard')).body.percent_complete).toBeGreaterThan(0);
    expect(await metrics()).toEqual(before);
  });

  it('still counts a learner enrollment (with or without the preview flag)', async () => {
    const learner = await createTestUser();
    const client = api.client();
    await signIn(client, learner);
    const before = await metrics();
    expect((await client.post('/api/enroll', { preview: true })).status).toBe(200);
    const after = await metrics();
    expect(after.enrollments_total - before.enrollments_total).toBe(1);
    const item = (await db().send(new GetCommand({ TableName: tableName(), Key: keys.enrollment(learner.id, content.id) }))).Item!;
    expect(item.staff).toBeUndefined();
  });
});
