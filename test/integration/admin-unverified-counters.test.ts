import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { hardDeleteUser } from '../../functions/admin/hard-delete';
import { readStats } from '../../functions/lib/stats';
import type { UserRecord } from '../../functions/lib/user-record';
import { getUserByEmail } from '../../functions/lib/users';
import type { AdminUserListItem, ListPage } from '../../shared/admin-types';
import { codeIn, latestEmail, useApi, type ApiClient } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';
import { setUserFields } from './program-helpers';
import { runAs } from '../../infra/local/iam/twin';

// The jobs under test run as their own Lambda function's IAM role, as in the cloud (infra/local/iam/twin.ts).
const adminHardDelete = (...args: Parameters<typeof hardDeleteUser>) => runAs('admin', () => hardDeleteUser(...args));

/**
 * The unverified × status counters (functions/lib/stats.ts unverifiedDeltas) behind the totals of
 * `GET /api/admin/users?filter=unverified&status=…` (docs/scale-reads.md): every write that
 * changes an account's status or verification keeps them exact, and a list with more than one
 * page answers them as its total instead of a COUNT.
 */
const api = useApi();
const PASSWORD = 'marble kettle sunrise';
let admin: UserRecord;
let adminClient: ApiClient;
const DAY = 24 * 3600 * 1000;

beforeAll(async () => {
  admin = await createTestUser({ role: 'admin', email: `counter-admin-${randomUUID().slice(0, 8)}@example.com` });
  adminClient = api.client();
  await signIn(adminClient, admin);
});

async function counters() {
  const stats = await readStats();
  return { locked: stats.users_unverified_locked, deleted: stats.users_unverified_deleted, live: stats.users_total - stats.users_verified };
}

/** Every row of a list, following next_cursor. */
async function allRows(path: string): Promise<Array<{ id: string }>> {
  const rows = [];
  let response = await adminClient.get<ListPage<AdminUserListItem>>(path);
  for (;;) {
    expect(response.status).toBe(200);
    rows.push(...response.body.items);
    if (!response.body.has_next) return rows;
    expect(response.body.next_cursor).toBeTypeOf('string');
    response = await adminClient.get<ListPage<AdminUserListItem>>(
      `${path}&cursor=${encodeURIComponent(response.body.next_cursor as string)}`,
    );
  }
}

describe('unverified × status counters', () => {
  it('follow every write that changes status or verification, and match the lists', async () => {
    const start = await counters();
    const expectDelta = async (locked: number, deleted: number, step: string) => {
      const now = await counters();
      expect({ locked: now.locked - start.locked, deleted: now.deleted - start.deleted }, step).toEqual({ locked, deleted });
    };

    // creation (insertUser): only unverified locked / deleted accounts count
    const active = await createTestUser({ verified: false });
    const locked = await createTestUser({ verified: false, status: 'locked' });
    const deleted = await createTestUser({ verified: false, status: 'deleted' });
    const verifiedLocked = await createTestUser({ verified: true, status: 'locked' });
    await createTestUser({ verified: true, status: 'deleted' });
    await expectDelta(1, 1, 'created');

    expect((await adminClient.post(`/api/admin/users/${active.id}/lock`, {})).status).toBe(200);
    await expectDelta(2, 1, 'lock');
    expect((await adminClient.post(`/api/admin/users/${locked.id}/unlock`, {})).status).toBe(200);
    await expectDelta(1, 1, 'unlock');
    expect((await adminClient.post(`/api/admin/users/${active.id}/soft-delete`, { reason: 'Counter test' })).status).toBe(200);
    await expectDelta(0, 2, 'soft delete of a locked account');
    expect((await adminClient.post(`/api/admin/users/${deleted.id}/restore`, {})).status).toBe(200);
    await expectDelta(0, 1, 'restore');

    // an email change makes a verified account unverified (locked: counted from then on)
    const changed = await adminClient.patch(`/api/admin/users/${verifiedLocked.id}`, {
      email: `changed-${randomUUID().slice(0, 8)}@example.com`,
    });
    expect(changed.status).toBe(200);
    await expectDelta(1, 1, 'email change');

    // verifying a locked account's email (registered, then locked by an admin before the code)
    const email = `counter-${randomUUID().slice(0, 8)}@example.com`;
    expect(
      (
        await api
          .client()
          .post('/api/auth/register', { first_name: 'Dorothy', last_name: 'Vaughan', email, password: PASSWORD, passwordConfirm: PASSWORD })
      ).status,
    ).toBe(201);
    const code = codeIn(await latestEmail(email, /Verify your email/));
    const registered = (await getUserByEmail(email))!;
    expect((await adminClient.post(`/api/admin/users/${registered.id}/lock`, {})).status).toBe(200);
    await expectDelta(2, 1, 'registered and locked');
    expect((await api.client().post('/api/auth/verify-email', { email, code })).status).toBe(200);
    await expectDelta(1, 1, 'verified while locked');

    // the lists hold exactly what the counters say
    const now = await counters();
    expect((await allRows('/api/admin/users?filter=unverified&status=locked&page_size=25')).length).toBe(now.locked);
    expect((await allRows('/api/admin/users?filter=unverified&status=deleted&page_size=25')).length).toBe(now.deleted);
    expect((await allRows('/api/admin/users?filter=unverified&status=active&page_size=25')).length).toBe(now.live - now.locked);
    expect((await allRows('/api/admin/users?filter=unverified&status=all&page_size=25')).length).toBe(now.live + now.deleted);

    // the hard delete (the purge's first write) takes a deleted account out of the counter
    await setUserFields(active.id, { deleted_at: new Date(Date.now() - 31 * DAY).toISOString() });
    const fresh = (await getUserByEmail(active.email))!;
    await adminHardDelete(fresh.id, fresh.email, { admin, ip: '203.0.113.1', userAgent: 'CounterTest' }, new Date(), {
      timeLeftMs: () => 60_000,
    });
    await expectDelta(1, 0, 'hard delete');
  });

  it('a list longer than a page answers the counter as its exact total', async () => {
    for (let i = 0; i < 27; i++) await createTestUser({ verified: false, status: 'locked', first_name: `Counted${i}` });
    const { locked } = await counters();
    expect(locked).toBeGreaterThan(25);
    const first = await adminClient.get('/api/admin/users?filter=unverified&status=locked&page_size=25');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: locked, total_is_estimate: false, has_next: true });
    expect(first.body.items).toHaveLength(25);
    const activeFirst = await adminClient.get('/api/admin/users?filter=unverified&status=active&page_size=25');
    expect(activeFirst.body.total_is_estimate).toBe(false);
  });
});
