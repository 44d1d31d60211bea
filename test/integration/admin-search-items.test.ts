import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { backfillSearchItems } from '../../functions/admin/search-items-backfill';
import { recordActivity } from '../../functions/lib/activity';
import type { WalkPosition } from '../../functions/lib/account-walk';
import { db, tableName } from '../../functions/lib/db';
import type { UserRecord } from '../../functions/lib/user-record';
import { getUserByEmail, getUserById, searchItems } from '../../functions/lib/users';
import { drainActivityStream } from '../../infra/local/activity-stream';
import type { AdminUserListItem, ListPage } from '../../shared/admin-types';
import { codeIn, latestEmail, useApi, type ApiClient } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';

/**
 * The admin search filters on its search items (functions/lib/users.ts searchItems): every write
 * that changes an account's status, verification or a searched value keeps them in step, an item
 * written before it carried those fields is still found, and the backfill fills them in.
 */
const api = useApi();
let adminClient: ApiClient;
const PASSWORD = 'marble kettle sunrise';

beforeAll(async () => {
  const admin = await createTestUser({ role: 'admin', email: `search-admin-${Date.now()}@example.com` });
  adminClient = api.client();
  await signIn(adminClient, admin);
});

/** The stored search items of the account as it is now, or undefined where one is missing. */
async function storedItems(userId: string) {
  const user = (await getUserById(userId))!;
  return Promise.all(
    searchItems(user).map(
      async ({ pk, sk }) => (await db().send(new GetCommand({ TableName: tableName(), Key: { pk, sk }, ConsistentRead: true }))).Item,
    ),
  );
}

/** Every stored item carries exactly what the account's current state gives it. */
async function expectInStep(userId: string) {
  const user = (await getUserById(userId))!;
  expect(await storedItems(userId)).toEqual(searchItems(user));
  return user;
}

const searchIds = async (query: string) =>
  (await adminClient.get<ListPage<AdminUserListItem>>(`/api/admin/users?${query}`)).body.items.map((row) => row.id);

/** Takes the filter fields off an account's items, as they were written before the fields existed. */
async function makeLegacy(user: UserRecord) {
  for (const { pk, sk } of searchItems(user)) {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk, sk },
        UpdateExpression: 'REMOVE #status, verified, shadowed, last_active_day',
        ExpressionAttributeNames: { '#status': 'status' },
      }),
    );
  }
}

describe('search items follow the account', () => {
  it('through registration, verification, a profile edit, lock, unlock, soft delete and restore', async () => {
    const tag = randomUUID().slice(0, 8);
    const email = `itemsync-${tag}@example.com`;
    const registered = await api
      .client()
      .post('/api/auth/register', { first_name: 'Ottilie', last_name: `Sync${tag}`, email, password: PASSWORD, passwordConfirm: PASSWORD });
    expect(registered.status).toBe(201);
    const { id } = (await getUserByEmail(email))!;
    expect((await expectInStep(id)).verified).toBe(false);
    expect(await searchIds(`query=itemsync-${tag}&filter=unverified`)).toEqual([id]);

    const code = codeIn(await latestEmail(email, /Verify your email/));
    expect((await api.client().post('/api/auth/verify-email', { email, code })).status).toBe(200);
    expect((await expectInStep(id)).verified).toBe(true);
    expect(await searchIds(`query=itemsync-${tag}&filter=unverified`)).toEqual([]);
    expect(await searchIds(`query=itemsync-${tag}`)).toEqual([id]);

    // a new email: the old email item goes, the new one comes, and all say unverified
    const newEmail = `itemsync-new-${tag}@example.com`;
    expect((await adminClient.patch(`/api/admin/users/${id}`, { email: newEmail, first_name: 'Ottoline' })).status).toBe(200);
    expect((await expectInStep(id)).verified).toBe(false);
    const [oldEmailItem] = searchItems({ ...(await getUserById(id))!, email });
    const oldKey = { pk: oldEmailItem.pk, sk: oldEmailItem.sk };
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: oldKey }))).Item).toBeUndefined();
    expect(await searchIds(`query=itemsync-new-${tag}&filter=unverified`)).toEqual([id]);
    expect(await searchIds(`query=ottoline&filter=unverified`)).toContain(id);
    expect(await searchIds(`query=ottilie`)).not.toContain(id);

    for (const [action, status] of [
      ['lock', 'locked'],
      ['unlock', 'active'],
      ['soft-delete', 'deleted'],
      ['restore', 'active'],
    ] as const) {
      expect((await adminClient.post(`/api/admin/users/${id}/${action}`, {})).status, action).toBe(200);
      expect((await expectInStep(id)).status, action).toBe(status);
      expect(await searchIds(`query=itemsync-new-${tag}&status=${status}`), action).toEqual([id]);
      const other = status === 'active' ? 'locked' : 'active';
      expect(await searchIds(`query=itemsync-new-${tag}&status=${other}`), action).toEqual([]);
    }
  });

  it('shows an account once when several of its fields match, through the first that does', async () => {
    const tag = randomUUID().slice(0, 6);
    // email, first and last name all start with the tag; "<tag>x" matches the email and the last name
    const user = await createTestUser({ email: `${tag}x@example.com`, first_name: tag, last_name: `${tag}xy` });
    const rows = await adminClient.get<ListPage<AdminUserListItem>>(`/api/admin/users?query=${tag}`);
    expect(rows.body.items.map((row) => row.id)).toEqual([user.id]);
    expect(await searchIds(`query=${tag}x`)).toEqual([user.id]);
    expect(await searchIds(`query=${tag}xy`)).toEqual([user.id]);
  });
});

describe('search items follow the activity', () => {
  const DAY = 24 * 3600 * 1000;

  it('carry the last active day the active cohorts filter on; a never active account is not in them', async () => {
    const tag = randomUUID().slice(0, 8);
    const [recent, older, never] = await Promise.all(
      ['recent', 'older', 'never'].map((name) => createTestUser({ email: `active-${tag}-${name}@example.com` })),
    );
    expect(await recordActivity(recent)).toBe(true);
    expect(await recordActivity(older, new Date(Date.now() - 20 * DAY))).toBe(true);
    await drainActivityStream();
    for (const user of [recent, older, never]) await expectInStep(user.id);
    expect((await storedItems(recent.id))[0]).toMatchObject({ last_active_day: new Date().toISOString().slice(0, 10) });
    expect(await searchIds(`query=active-${tag}&filter=active7d`)).toEqual([recent.id]);
    expect((await searchIds(`query=active-${tag}&filter=active30d`)).sort()).toEqual([recent.id, older.id].sort());
  });

  it('records the activity of an account renamed meanwhile on its new items, and creates no item for the old name', async () => {
    const tag = randomUUID().slice(0, 8);
    const stale = await createTestUser({ email: `renamed-${tag}@example.com`, first_name: `Before${tag}` });
    expect((await adminClient.patch(`/api/admin/users/${stale.id}`, { first_name: `After${tag}` })).status).toBe(200);
    // the caller still holds the account as read before the rename: its old first-name item is gone
    expect(await recordActivity(stale)).toBe(true);
    await drainActivityStream();
    const user = await expectInStep(stale.id);
    expect(user.last_active_day).toBe(new Date().toISOString().slice(0, 10));
    const [oldName] = searchItems(stale).filter((item) => item.field === 'first_name');
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: { pk: oldName.pk, sk: oldName.sk } }))).Item).toBeUndefined();
    expect(await searchIds(`query=after${tag}&filter=active7d`)).toEqual([stale.id]);
  });

  it('records the activity of an account whose search items are missing, without creating any', async () => {
    const user = await createTestUser({ email: `itemless-${randomUUID().slice(0, 8)}@example.com` });
    for (const { pk, sk } of searchItems(user)) await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk, sk } }));
    expect(await recordActivity(user)).toBe(true);
    await drainActivityStream();
    expect((await getUserById(user.id))?.last_active_day).toBe(new Date().toISOString().slice(0, 10));
    expect((await storedItems(user.id)).filter(Boolean)).toEqual([]);
  });
});

describe('search items written before they carried the filter fields', () => {
  it('are found and checked on their accounts until the backfill fills them in; a rerun changes nothing', async () => {
    const tag = randomUUID().slice(0, 8);
    const people = await Promise.all(
      [
        { verified: true, status: 'active' as const },
        { verified: false, status: 'active' as const },
        { verified: false, status: 'locked' as const },
        { verified: false, status: 'deleted' as const },
      ].map((state, i) => createTestUser({ ...state, email: `legacy-${tag}-${i}@example.com`, first_name: `Legacy${tag}` })),
    );
    for (const person of people) await makeLegacy(person);
    const [verified, unverified, locked, deleted] = people.map((person) => person.id);
    // active before the items carried anything: the account says so, the items do not
    await recordActivity(people[0]);
    await drainActivityStream();
    await makeLegacy(people[0]);

    // before the backfill: the same answers, decided on the accounts (one row per account)
    const before = {
      all: await searchIds(`query=legacy-${tag}&status=all`),
      unverified: await searchIds(`query=legacy-${tag}&filter=unverified`),
      locked: await searchIds(`query=legacy${tag}&status=locked`),
      byName: await searchIds(`query=legacy${tag}`),
      active: await searchIds(`query=legacy${tag}&filter=active7d`),
    };
    expect(before.active).toEqual([verified]);
    expect(before.all.sort()).toEqual([verified, unverified, locked, deleted].sort());
    expect(before.unverified.sort()).toEqual([unverified, locked].sort());
    expect(before.locked).toEqual([locked]);
    expect(before.byName.sort()).toEqual([verified, unverified, locked].sort());

    // the backfill, one account a page, resumed from each page's position
    const positions: { walked: number; next: WalkPosition }[] = [];
    const totals = await backfillSearchItems({ status: 0 }, (sofar, next) => positions.push({ walked: sofar.accounts, next }), 1);
    expect(totals.updated).toBeGreaterThanOrEqual(people.length * 3);
    for (const person of people) await expectInStep(person.id);
    expect(positions.at(-1)?.next).toEqual({ status: 3, key: undefined });
    // resumed from a position in the middle, it walks exactly the accounts after it
    const middle = positions[Math.floor(positions.length / 2)];
    expect(middle.walked).toBeGreaterThan(0);
    expect((await backfillSearchItems(middle.next)).accounts).toBe(totals.accounts - middle.walked);
    expect(await backfillSearchItems(positions.at(-1)?.next)).toEqual({ accounts: 0, updated: 0, current: 0 });
    const rerun = await backfillSearchItems();
    expect(rerun.updated).toBe(0);
    expect(rerun.current).toBeGreaterThanOrEqual(people.length * 3);

    // after: the same answers, now filtered on the items
    expect((await searchIds(`query=legacy-${tag}&status=all`)).sort()).toEqual(before.all.sort());
    expect((await searchIds(`query=legacy-${tag}&filter=unverified`)).sort()).toEqual(before.unverified.sort());
    expect(await searchIds(`query=legacy${tag}&status=locked`)).toEqual([locked]);
    expect((await searchIds(`query=legacy${tag}`)).sort()).toEqual(before.byName.sort());
    expect(await searchIds(`query=legacy${tag}&filter=active7d`)).toEqual([verified]);
  });

  it('leaves alone an item that a status change rewrote meanwhile', async () => {
    const user = await createTestUser({ email: `raced-${randomUUID().slice(0, 8)}@example.com` });
    await makeLegacy(user);
    // the lock writes the current fields; a backfill that read the account before would write
    // "active": its condition (no `shadowed` yet) keeps the lock's
    expect((await adminClient.post(`/api/admin/users/${user.id}/lock`)).status).toBe(200);
    await backfillSearchItems();
    expect((await expectInStep(user.id)).status).toBe('locked');
  });
});
