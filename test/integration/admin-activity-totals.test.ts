import { beforeAll, describe, expect, it } from 'vitest';
import { recordActivity } from '../../functions/lib/activity';
import type { UserRecord } from '../../functions/lib/user-record';
import { drainActivityStream } from '../../infra/local/activity-stream';
import type { AdminUserListItem, ListPage } from '../../shared/admin-types';
import { useApi, type ApiClient } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';

/**
 * The totals of `GET /api/admin/users?filter=active7d|active30d&status=…` (docs/scale-reads.md
 * "Totals"): the last-active histogram counts every account and the locked / deleted ones among
 * them, so every status × activity cohort has an exact total from one Query of day buckets, kept
 * by the activity aggregator (the table's stream) and by every status change. This file has its own table: the data below is all
 * there is.
 */
const api = useApi();
let adminClient: ApiClient;
const DAY = 24 * 3600 * 1000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

type Page = ListPage<AdminUserListItem>;

/** The first page's total and every row, following next_cursor. */
async function totalAndRows(query: string): Promise<{ total: number; estimate: boolean; rows: AdminUserListItem[]; pages: number }> {
  const first = await adminClient.get<Page>(`/api/admin/users?${query}&page_size=25`);
  expect(first.status).toBe(200);
  const rows = [...first.body.items];
  let page = first.body;
  let pages = 1;
  while (page.has_next) {
    const next = await adminClient.get<Page>(
      `/api/admin/users?${query}&page_size=25&cursor=${encodeURIComponent(String(page.next_cursor))}`,
    );
    expect(next.status).toBe(200);
    rows.push(...next.body.items);
    page = next.body;
    pages++;
  }
  return { total: first.body.total, estimate: Boolean(first.body.total_is_estimate), rows, pages };
}

const SCOPES = ['', 'all', 'active', 'locked', 'deleted'] as const;

/** For each cohort × status, once the activity stream is drained: the first page's total is exact and equals the rows listed. */
async function expectExactTotals(step: string) {
  await drainActivityStream();
  const seen: Record<string, number> = {};
  for (const filter of ['active7d', 'active30d'] as const) {
    for (const status of SCOPES) {
      const { total, estimate, rows } = await totalAndRows(`filter=${filter}${status ? `&status=${status}` : ''}`);
      const label = `${step}: ${filter} × ${status || 'default'}`;
      expect(estimate, label).toBe(false);
      expect(total, label).toBe(rows.length);
      seen[`${filter}×${status || 'default'}`] = total;
    }
  }
  return seen;
}

const post = (path: string, body: unknown = {}) => adminClient.post(path, body).then((response) => expect(response.status, path).toBe(200));

describe('active cohorts × status: exact totals from the last-active histogram', () => {
  const today: UserRecord[] = [];
  const tenDaysAgo: UserRecord[] = [];

  beforeAll(async () => {
    const admin = await createTestUser({ role: 'admin' });
    adminClient = api.client();
    await signIn(adminClient, admin);
    for (let i = 0; i < 34; i++) today.push(await createTestUser({ first_name: `Today${i}` }));
    for (let i = 0; i < 28; i++) tenDaysAgo.push(await createTestUser({ first_name: `Earlier${i}` }));
    const old = await createTestUser({ first_name: 'Long ago' });
    await Promise.all([
      ...today.map((user) => recordActivity(user.id)),
      ...tenDaysAgo.map((user) => recordActivity(user.id, daysAgo(10))),
      recordActivity(old.id, daysAgo(40)),
    ]);
  });

  it('counts every cohort × status exactly, across more than one page, and follows locks, deletes, restores and unlocks', async () => {
    for (const user of today.slice(0, 3)) await post(`/api/admin/users/${user.id}/lock`);
    for (const user of today.slice(3, 5)) await post(`/api/admin/users/${user.id}/soft-delete`, { reason: 'test' });
    for (const user of tenDaysAgo.slice(0, 2)) await post(`/api/admin/users/${user.id}/lock`);
    // locked, then deleted: it leaves the locked count for the deleted one
    await post(`/api/admin/users/${tenDaysAgo[2].id}/lock`);
    await post(`/api/admin/users/${tenDaysAgo[2].id}/soft-delete`, { reason: 'test' });

    const totals = await expectExactTotals('after locks and deletes');
    expect(totals).toMatchObject({
      'active7d×all': 34,
      'active7d×default': 32,
      'active7d×active': 29,
      'active7d×locked': 3,
      'active7d×deleted': 2,
      'active30d×all': 62,
      'active30d×default': 59,
      'active30d×active': 54,
      'active30d×locked': 5,
      'active30d×deleted': 3,
    });

    await post(`/api/admin/users/${today[3].id}/restore`);
    await post(`/api/admin/users/${today[0].id}/unlock`);
    await post(`/api/admin/users/${tenDaysAgo[2].id}/restore`);
    expect(await expectExactTotals('after restores and an unlock')).toMatchObject({
      'active7d×all': 34,
      'active7d×active': 31,
      'active7d×locked': 2,
      'active7d×deleted': 1,
      'active30d×active': 57,
      'active30d×locked': 4,
      'active30d×deleted': 1,
    });
  });

  it('stays exact when a learner comes back at the moment an admin locks the account', async () => {
    // last active 20 days ago: the activity moves them into the 7-day window while the lock lands
    const racers: UserRecord[] = [];
    for (let i = 0; i < 12; i++) racers.push(await createTestUser({ first_name: `Racer${i}` }));
    await Promise.all(racers.map((user) => recordActivity(user.id, daysAgo(20))));
    await Promise.all(racers.flatMap((user) => [recordActivity(user.id), post(`/api/admin/users/${user.id}/lock`)]));
    const totals = await expectExactTotals('after the races');
    const locked7d = await totalAndRows('filter=active7d&status=locked');
    expect(locked7d.rows.filter((row) => row.first_name.startsWith('Racer'))).toHaveLength(12);
    expect(totals['active7d×locked']).toBe(locked7d.rows.length);
  });
});
