import { describe, expect, it } from 'vitest';
import { recordActivity, dayOf } from '../../functions/lib/activity';
import { getUserById } from '../../functions/lib/users';
import { drainActivityStream } from '../../infra/local/activity-stream';
import { program } from '../../functions/program/content';
import { enroll } from '../../functions/program/enroll';
import { percentComplete } from '../../functions/program/progress';
import { saveTask } from '../../functions/program/task-save';
import type { AdminSummary, AdminUserListItem, ListPage } from '../../shared/admin-types';
import { useApi } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';
import { doneBody, finishModule } from './program-helpers';

/**
 * The admin summary's definitions on a known data set written through the real write paths
 * (insertUser, the enroll and task-save domain functions with fixed dates, the learner API,
 * recordActivity with fixed dates, the admin soft-delete). Every expected number is worked out
 * by hand below.
 */
const api = useApi();
const content = program();
const DAY = 24 * 3600 * 1000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);
const week1 = content.modules.filter((module) => module.week_number === 1);
const M = content.modules.length;

async function finishWeek1At(userId: string, at: Date) {
  const user = (await getUserById(userId))!;
  for (const module of week1) {
    for (const task of module.tasks.filter((t) => t.required)) await saveTask(user, module.slug, task.task_id, doneBody(task), at);
  }
}

describe('GET /api/admin/summary on a known data set', () => {
  it('answers every card, the drill links and the two series as defined', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const adminClient = api.client();
    await signIn(adminClient, admin);

    // A: enrolled 10 days ago, week 1 done 9 days ago (on time) → mature, not a drop-off
    const a = await createTestUser({ first_name: 'Alice' });
    await enroll(a, daysAgo(10));
    await finishWeek1At(a.id, daysAgo(9));
    await recordActivity(a.id, new Date());
    // B: enrolled 10 days ago, nothing done → mature drop-off; active 20 and 3 days ago
    const b = await createTestUser({ first_name: 'Bob' });
    await enroll(b, daysAgo(10));
    await recordActivity(b.id, daysAgo(20));
    await recordActivity(b.id, daysAgo(3));
    // C: enrolls today through the learner API and finishes one module (activity today) → not mature
    const c = await createTestUser({ first_name: 'Carol' });
    const cClient = api.client();
    await signIn(cClient, c);
    expect((await cClient.post('/api/enroll')).status).toBe(200);
    await finishModule(cClient, content.modules[0].slug);
    // U: unverified, active 15 days ago
    const u = await createTestUser({ first_name: 'Uma', verified: false });
    await recordActivity(u.id, daysAgo(15));
    // D: verified, active yesterday, then soft-deleted → not a user any more, nor an active one
    const d = await createTestUser({ first_name: 'Dan' });
    await recordActivity(d.id, daysAgo(1));
    expect((await adminClient.post(`/api/admin/users/${d.id}/soft-delete`, { reason: 'test' })).status).toBe(200);

    await drainActivityStream();
    const response = await adminClient.get<AdminSummary>('/api/admin/summary');
    expect(response.status).toBe(200);
    const summary = response.body;

    // users: admin, A, B, C, U (D deleted) = 5; verified: admin, A, B, C = 4 → 0.8
    // enrollments A, B, C; percents: A = week-1 modules of M, B = 0, C = 1 of M
    const pA = percentComplete(week1.length, M);
    const pC = percentComplete(1, M);
    expect(summary.cards).toEqual({
      total_users: 5,
      total_enrollments: 3,
      avg_completion: Math.round(((pA + 0 + pC) / 3) * 10) / 10,
      active_7d: 3, // A today, C today, B 3 days ago (not D: soft-deleted, like the Users card)
      active_30d: 4, // + U 15 days ago
      verification_rate: 0.8,
      week1_dropoff: 0.5, // mature: A and B; B did not finish week 1 in 7 days (C is not 7 days old)
      week1_measured: 2,
    });
    expect(summary.completion).toEqual({ aggregate_pct: Math.round(((week1.length + 1) / (3 * M)) * 1000) / 10 });
    expect(summary.dropoff_method).toBe('7d');
    expect(Math.abs(Date.parse(summary.as_of_utc) - Date.now())).toBeLessThan(60_000);
    expect(summary.drill).toEqual({
      active_7d: '/admin/users?filter=active7d',
      active_30d: '/admin/users?filter=active30d',
      unverified: '/admin/users?filter=unverified',
      week1_dropoff: '/admin/users?filter=week1_dropoff',
    });

    // series: distinct learners per day, oldest first, zero-filled
    const expected7 = Array.from({ length: 7 }, (_, i) => dayOf(daysAgo(6 - i)));
    expect(summary.series.actives_7d_daily.map((p: { date: string }) => p.date)).toEqual(expected7);
    const count = (series: Array<{ date: string; count: number }>, n: number) => series.find((p) => p.date === dayOf(daysAgo(n)))?.count;
    expect(count(summary.series.actives_7d_daily, 0)).toBe(2); // A and C
    expect(count(summary.series.actives_7d_daily, 3)).toBe(1); // B
    expect(count(summary.series.actives_7d_daily, 1)).toBe(1); // D, the day it was active
    expect(summary.series.actives_7d_daily.reduce((s: number, p: { count: number }) => s + p.count, 0)).toBe(4);
    expect(summary.series.actives_30d_daily).toHaveLength(30);
    expect(summary.series.actives_30d_daily[29].date).toBe(dayOf(new Date()));
    expect(count(summary.series.actives_30d_daily, 9)).toBe(1); // A's task saves
    expect(count(summary.series.actives_30d_daily, 15)).toBe(1); // U
    expect(count(summary.series.actives_30d_daily, 20)).toBe(1); // B
    expect(summary.series.actives_30d_daily.reduce((s: number, p: { count: number }) => s + p.count, 0)).toBe(7);

    // the drill-down cohorts list exactly those accounts
    const ids = async (query: string) => {
      const list = await adminClient.get<ListPage<AdminUserListItem>>(`/api/admin/users?${query}`);
      expect(list.status).toBe(200);
      expect(list.body.total).toBe(list.body.items.length);
      return list.body.items.map((item: { id: string }) => item.id).sort();
    };
    expect(await ids('filter=active7d')).toEqual([a.id, b.id, c.id].sort());
    expect(await ids('filter=active30d')).toEqual([a.id, b.id, c.id, u.id].sort());
    expect(await ids('filter=unverified')).toEqual([u.id]);
    expect(await ids('filter=week1_dropoff')).toEqual([b.id]);
    expect(await ids('filter=deleted')).toEqual([d.id]);
    expect(await ids('status=deleted')).toEqual([d.id]);

    // list rows carry the enrollment's completion
    const list = await adminClient.get<ListPage<AdminUserListItem>>('/api/admin/users?status=all&page_size=100');
    expect(list.body.total).toBe(6);
    const rowA = list.body.items.find((item: { id: string }) => item.id === a.id);
    expect(rowA).toMatchObject({ completion_pct: pA, enrollments: 1, status: 'active', is_locked: false, role: 'learner' });
    expect(list.body.items.find((item: { id: string }) => item.id === u.id)).toMatchObject({ completion_pct: 0, enrollments: 0 });
  });
});
