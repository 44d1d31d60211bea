import { randomUUID } from 'node:crypto';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { PREVIEW_AUDIT_CAP } from '../../functions/admin/hard-delete-preview';
import { auditItems, type AuditInput } from '../../functions/lib/audit';
import { batchWriteItems } from '../../functions/lib/batch-items';
import { db, tableName } from '../../functions/lib/db';
import { readStats } from '../../functions/lib/stats';
import { AUDIT_SHARDS, auditShardOf, INDEX, indexPartition } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import type { AdminUserListItem, AuditEntry, ListPage } from '../../shared/admin-types';
import { MAX_PAGE_WITHOUT_CURSOR } from '../../shared/constants';
import type { hardDeletePreview } from '../../shared/api-schemas/admin';
import { useApi, type ApiClient } from '../helpers/api';
import { legacyAuditItem } from '../helpers/legacy-audit';
import { createTestUser, createTestUsers, signIn } from '../helpers/users';

/**
 * Cursor paging and filters of the admin lists (docs/scale-reads.md), against DynamoDB Local.
 * This file has its own table: the data below is all there is.
 */
const api = useApi();
type HardDeletePreview = z.infer<typeof hardDeletePreview>;
let admin: UserRecord;
let adminClient: ApiClient;

beforeAll(async () => {
  admin = await createTestUser({ role: 'admin', email: `pager-admin-${Date.now()}@example.com` });
  adminClient = api.client();
  await signIn(adminClient, admin);
});

type Row = { id: string; email: string; status: string; created_at: string; first_name: string };

/** Follows next_cursor from the first page to the last; returns every page (rows of type `T`). */
async function allPages<T>(path: string) {
  const pages: Array<ListPage<T>> = [];
  let response = await adminClient.get<ListPage<T>>(path);
  for (;;) {
    expect(response.status).toBe(200);
    pages.push(response.body);
    if (!response.body.has_next) break;
    expect(typeof response.body.next_cursor).toBe('string');
    response = await adminClient.get<ListPage<T>>(
      `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(response.body.next_cursor as string)}`,
    );
  }
  expect(pages.at(-1)?.next_cursor).toBeNull();
  return pages;
}

describe('user list: cursors', () => {
  let created: UserRecord[];
  beforeAll(async () => {
    created = [];
    for (let i = 0; i < 30; i++) created.push(await createTestUser({ first_name: `Cursor${String(i).padStart(2, '0')}` }));
  });

  it('pages with next_cursor at one page a call, newest first, no row twice, null on the last page', async () => {
    const first = await adminClient.get<ListPage<AdminUserListItem>>('/api/admin/users?page_size=25');
    expect(first.body).toMatchObject({ page: 1, page_size: 25, has_next: true, total_is_estimate: false });
    expect(first.body.items).toHaveLength(25);
    expect(first.body.total).toBe((await readStats()).users_total);
    const pages = await allPages<AdminUserListItem>('/api/admin/users?page_size=25');
    const rows = pages.flatMap((page) => page.items as Row[]);
    expect(rows.length).toBe((await readStats()).users_total);
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    expect([...rows].sort((a, b) => b.created_at.localeCompare(a.created_at))).toEqual(rows);
    expect(pages.at(-1)?.total).toBe(rows.length);
    // page=2 without a cursor answers the same rows as the cursor
    const second = await adminClient.get<ListPage<AdminUserListItem>>('/api/admin/users?page_size=25&page=2');
    expect(second.body.items.map((row: Row) => row.id)).toEqual(pages[1].items.map((row: Row) => row.id));
    expect(second.body.has_next).toBe(false);
  });

  it('answers 400 invalid_cursor for a tampered, malformed or foreign cursor, never 500', async () => {
    const first = await adminClient.get<ListPage<AdminUserListItem>>('/api/admin/users?page_size=25');
    expect(first.body.next_cursor).toBeTypeOf('string');
    const cursor = first.body.next_cursor as string;
    const [body, signature] = cursor.split('.');
    const state = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${Buffer.from(JSON.stringify({ ...state, after: '9999' })).toString('base64url')}.${signature}`;
    const audit = await adminClient.get('/api/admin/audit-logs?page_size=25&date_from=2000-01-01&date_to=2000-12-31');
    for (const bad of [forged, `${body}.${signature.slice(0, -2)}AA`, 'not-a-cursor', `${body}.${signature}.x`, '%%%']) {
      const response = await adminClient.get(`/api/admin/users?page_size=25&cursor=${encodeURIComponent(bad)}`);
      expect(response.status, bad).toBe(400);
      expect(response.body).toEqual({ error: 'invalid_cursor' });
    }
    // a cursor of another list or another filter is foreign
    expect((await adminClient.get(`/api/admin/users?status=all&cursor=${encodeURIComponent(cursor)}`)).body).toEqual({
      error: 'invalid_cursor',
    });
    expect((await adminClient.get(`/api/admin/users?filter=unverified&cursor=${encodeURIComponent(cursor)}`)).body).toEqual({
      error: 'invalid_cursor',
    });
    expect((await adminClient.get(`/api/admin/audit-logs?cursor=${encodeURIComponent(cursor)}`)).body).toEqual({ error: 'invalid_cursor' });
    expect((await adminClient.get(`/api/admin/users/${admin.id}/audit-logs?cursor=${encodeURIComponent(cursor)}`)).body).toEqual({
      error: 'invalid_cursor',
    });
    expect(audit.status).toBe(200);
  });

  it('serves page N without a cursor only up to MAX_PAGE_WITHOUT_CURSOR (a deeper one would walk every page before it): 400 page_needs_cursor', async () => {
    const deepest = await adminClient.get<ListPage<AdminUserListItem>>(`/api/admin/users?page_size=25&page=${MAX_PAGE_WITHOUT_CURSOR}`);
    expect(deepest.status).toBe(200);
    expect(deepest.body.page).toBe(MAX_PAGE_WITHOUT_CURSOR);
    const refused = { error: 'page_needs_cursor', max_page: MAX_PAGE_WITHOUT_CURSOR };
    for (const path of [
      `/api/admin/users?page_size=100&status=all&page=${MAX_PAGE_WITHOUT_CURSOR + 1}`,
      '/api/admin/users?page=1000&page_size=100&status=all',
      '/api/admin/users?query=cursor&page=50',
      `/api/admin/audit-logs?page=${MAX_PAGE_WITHOUT_CURSOR + 1}`,
      `/api/admin/users/${admin.id}/audit-logs?page=${MAX_PAGE_WITHOUT_CURSOR + 1}`,
    ]) {
      const response = await adminClient.get(path);
      expect(response.status, path).toBe(400);
      expect(response.body, path).toEqual(refused);
    }
    // with its cursor, a deep page is one page's read whatever its number
    const first = await adminClient.get<ListPage<AdminUserListItem>>('/api/admin/users?page_size=25');
    const viaCursor = await adminClient.get<ListPage<AdminUserListItem>>(
      `/api/admin/users?page_size=25&page=40&cursor=${encodeURIComponent(first.body.next_cursor as string)}`,
    );
    expect(viaCursor.status).toBe(200);
    expect(viaCursor.body.items.length).toBeGreaterThan(0);
  });
});

describe('user list: every status × cohort is its own key range', () => {
  const made: Record<string, UserRecord[]> = {};
  beforeAll(async () => {
    for (const status of ['active', 'locked', 'deleted'] as const) {
      for (const verified of [true, false]) {
        const key = `${status}-${verified}`;
        made[key] = [];
        for (let i = 0; i < 3; i++) made[key].push(await createTestUser({ status, verified, first_name: `Combo${status}${verified}${i}` }));
      }
    }
  });

  it('unverified × each status lists exactly those accounts, with an exact bounded total', async () => {
    for (const status of ['active', 'locked', 'deleted'] as const) {
      const response = await adminClient.get<ListPage<AdminUserListItem>>(`/api/admin/users?filter=unverified&status=${status}`);
      expect(response.status).toBe(200);
      const ids = (response.body.items as Row[]).map((row) => row.id).sort();
      expect(ids).toEqual(made[`${status}-false`].map((user) => user.id).sort());
      expect(response.body).toMatchObject({ total: 3, total_is_estimate: false, has_next: false, next_cursor: null });
    }
    const live = await adminClient.get<ListPage<AdminUserListItem>>('/api/admin/users?filter=unverified');
    const liveIds = (live.body.items as Row[]).map((row) => row.id);
    expect(liveIds).toEqual(expect.arrayContaining([...made['active-false'], ...made['locked-false']].map((user) => user.id)));
    expect(liveIds).not.toEqual(expect.arrayContaining([made['deleted-false'][0].id]));
    const all = await adminClient.get<ListPage<AdminUserListItem>>('/api/admin/users?filter=unverified&status=all');
    expect((all.body.items as Row[]).map((row) => row.id)).toEqual(expect.arrayContaining(made['deleted-false'].map((user) => user.id)));
  });

  it('plain status lists and the deleted drill', async () => {
    const locked = await adminClient.get<ListPage<AdminUserListItem>>('/api/admin/users?status=locked');
    expect((locked.body.items as Row[]).every((row) => row.status === 'locked')).toBe(true);
    expect(locked.body.items).toHaveLength(6);
    const drill = await adminClient.get<ListPage<AdminUserListItem>>('/api/admin/users?filter=deleted');
    expect((drill.body.items as Row[]).map((row) => row.id).sort()).toEqual(
      [...made['deleted-true'], ...made['deleted-false']].map((user) => user.id).sort(),
    );
  });
});

describe('user search: filters before any limit, truthful truncation', () => {
  let lockedOne: UserRecord;
  beforeAll(async () => {
    // more than a request's read budget: 3 rounds of at most 8 × (page_size + 1) search items
    await createTestUsers(Array.from({ length: 640 }, (_, i) => ({ first_name: `Quill${String(i).padStart(3, '0')}` })));
    // the only locked match is the last one in key order: past any single read budget
    lockedOne = await createTestUser({ first_name: 'Quillzz', status: 'locked' });
  }, 60_000);

  it('finds the one locked match behind 640 active ones, by following cursors', async () => {
    const pages = await allPages<AdminUserListItem>('/api/admin/users?query=quill&status=locked&page_size=25');
    const rows = pages.flatMap((page) => page.items as Row[]);
    expect(rows.map((row) => row.id)).toEqual([lockedOne.id]);
    // the first page stopped at its read budget and says so, instead of claiming "no match"
    expect(pages[0]).toMatchObject({ items: [], has_next: true, truncated: true, total_is_estimate: true });
    expect(pages.at(-1)).toMatchObject({ total: 1, total_is_estimate: false, has_next: false });
    // the status is filtered on the search items, so a request reads 3 rounds of up to 208 of
    // them: 2 requests for 641 (checked on the accounts, 3 rounds of 52 accounts: 5 requests)
    expect(pages).toHaveLength(2);
  });

  it('pages a broad search fully: every match once, in key order', async () => {
    const pages = await allPages<AdminUserListItem>('/api/admin/users?query=quill&page_size=25');
    const names = pages.flatMap((page) => (page.items as Row[]).map((row) => row.first_name));
    expect(names).toHaveLength(641); // the default scope is active + locked
    expect(names).toEqual([...names].sort());
    expect(pages[0]).toMatchObject({ has_next: true, total_is_estimate: true });
    expect(pages.at(-1)).toMatchObject({ total: 641, total_is_estimate: false });
  });
});

describe('list indexes hold no secrets', () => {
  it('the user-list indexes project only list fields, and an index item has no password hash', async () => {
    const table = await db().send(new DescribeTableCommand({ TableName: tableName() }));
    for (const name of ['usersByStatus', 'usersUnverified', 'usersByActivity'] as const) {
      const index = table.Table!.GlobalSecondaryIndexes!.find((gsi) => gsi.IndexName === INDEX[name].indexName)!;
      expect(index.Projection?.ProjectionType).toBe('INCLUDE');
      expect(index.Projection?.NonKeyAttributes).not.toContain('password_hash');
      expect(index.Projection?.NonKeyAttributes).not.toContain('session_version');
    }
    const listed = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: INDEX.usersByStatus.indexName,
        KeyConditionExpression: '#pk = :status',
        ExpressionAttributeNames: { '#pk': INDEX.usersByStatus.partitionKey },
        ExpressionAttributeValues: { ':status': indexPartition.usersByStatus('active') },
        Limit: 5,
      }),
    );
    expect(listed.Items!.length).toBeGreaterThan(0);
    for (const item of listed.Items!) {
      expect(item).toHaveProperty('email');
      expect(item).not.toHaveProperty('password_hash');
      expect(item).not.toHaveProperty('session_version');
    }
  });
});

/** An audit entry as stored (functions/lib/audit.ts auditItems: the entry, then its references). */
type Seeded = { id: string; sk: string; action: string; entity_type: string; entity_id: string; actor_email?: string };
const writeAuditEntries = (entries: Record<string, unknown>[][]) =>
  batchWriteItems(entries.flat().map((Item) => ({ PutRequest: { Item } })));

describe('audit log: every filter is a key range', () => {
  const DAY = 24 * 3600 * 1000;
  const now = Date.now();
  const ago = (days: number) => new Date(now - days * DAY);
  const dayOf = (date: Date) => date.toISOString().slice(0, 10);
  /** The entries written (their references are written with them). */
  const seeded: Seeded[] = [];
  // real accounts: the actor filter reads the entries of the accounts an email (prefix) names
  let alice = { id: '', email: 'alice.audit@acme.test' };
  let alina = { id: '', email: 'Alina.Audit@acme.test' };
  let bob = { id: '', email: 'bob.audit@other.test' };
  // actions of the code (the entity-type filter reads the actions of the type), on entities of this test only
  const ENTITY = 'paging-audit-';
  const actionTypes: Array<[string, string]> = [
    ['admin.user.lock', 'user'],
    ['admin.user.unlock', 'user'],
    ['admin.program.publish', 'program'],
  ];

  const written: Record<string, unknown>[] = [];
  beforeAll(async () => {
    // the actor prefix is resolved through the accounts' search items
    const account = async (actor: { email: string }) => ({ id: (await createTestUser({ email: actor.email })).id, email: actor.email });
    alice = await account(alice);
    alina = await account(alina);
    bob = await account(bob);
    const actors = [alice, alina, bob, undefined];
    for (let i = 0; i < 90; i++) {
      // a program action on every fifth entity as well, so an entity type is more than one action
      const [action, entityType] = actionTypes[i % 5 === 0 ? 2 : i % 3];
      const input: AuditInput = { action, actor: actors[i % 4], entityType, entityId: `${ENTITY}${i % 7}` };
      // spread over the last 40 days, a few in the same millisecond
      const [entry, ...refs] = auditItems(input, new Date(ago(i % 40).getTime() - i));
      seeded.push(entry as Seeded);
      written.push(entry, ...refs);
    }
    await batchWriteItems(written.map((Item) => ({ PutRequest: { Item } })));
  });

  const expected = (match: (entry: (typeof seeded)[number]) => boolean, from = dayOf(ago(29)), to = dayOf(new Date(now))) =>
    seeded
      .filter((entry) => entry.sk.slice(0, 10) >= from && entry.sk.slice(0, 10) <= to && entry.entity_id.startsWith(ENTITY) && match(entry))
      .sort((a, b) => (a.sk < b.sk ? 1 : -1))
      .map((entry) => entry.id);

  async function ids(query: string) {
    const pages = await allPages<AuditEntry>(`/api/admin/audit-logs?page_size=25&${query}`);
    const items = pages
      .flatMap((page) => page.items as Array<{ id: string; entity_id: string }>)
      .filter((entry) => entry.entity_id.startsWith(ENTITY));
    return { ids: items.map((entry) => entry.id), pages };
  }

  const cases: Array<[string, string, (entry: (typeof seeded)[number]) => boolean]> = [
    ['unfiltered', '', () => true],
    ['action', 'action=admin.user.unlock', (e) => e.action === 'admin.user.unlock'],
    ['entity type', 'entity_type=program', (e) => e.entity_type === 'program'],
    ['entity type of many actions', 'entity_type=user', (e) => e.entity_type === 'user'],
    ['entity id alone', `entity_id=${ENTITY}3`, (e) => e.entity_id === `${ENTITY}3`],
    ['entity type and id', `entity_type=user&entity_id=${ENTITY}3`, (e) => e.entity_type === 'user' && e.entity_id === `${ENTITY}3`],
    ['actor full email (any case)', 'actor=ALICE.AUDIT%40ACME.TEST', (e) => e.actor_email === alice.email],
    ['actor local-part prefix (two accounts)', 'actor=ali', (e) => e.actor_email === alice.email || e.actor_email === alina.email],
    ['actor domain', 'actor=%40acme.test', (e) => e.actor_email === alice.email || e.actor_email === alina.email],
    ['actor + action', 'actor=bob&action=admin.user.lock', (e) => e.actor_email === bob.email && e.action === 'admin.user.lock'],
    [
      'action + entity type',
      'action=admin.program.publish&entity_type=program',
      (e) => e.action === 'admin.program.publish' && e.entity_type === 'program',
    ],
    [
      'domain + entity id',
      `actor=%40acme.test&entity_id=${ENTITY}1`,
      (e) => (e.actor_email === alice.email || e.actor_email === alina.email) && e.entity_id === `${ENTITY}1`,
    ],
    [
      'actor + entity type + action',
      'actor=ali&entity_type=user&action=admin.user.lock',
      (e) => (e.actor_email === alice.email || e.actor_email === alina.email) && e.entity_type === 'user' && e.action === 'admin.user.lock',
    ],
  ];
  for (const [name, query, match] of cases) {
    it(`filters by ${name}, newest first, across cursor pages`, async () => {
      const result = await ids(query);
      expect(result.ids).toEqual(expected(match));
      expect(result.pages.at(-1)?.total).toBe(result.pages.flatMap((page) => page.items).length);
    });
  }

  it('applies the date window as a key range, alone and with filters', async () => {
    const from = dayOf(ago(20));
    const to = dayOf(ago(5));
    expect((await ids(`date_from=${from}&date_to=${to}`)).ids).toEqual(expected(() => true, from, to));
    expect((await ids(`date_from=${from}&date_to=${to}&action=admin.user.lock`)).ids).toEqual(
      expected((e) => e.action === 'admin.user.lock', from, to),
    );
    expect((await ids(`date_from=${from}&date_to=${to}&actor=bob`)).ids).toEqual(expected((e) => e.actor_email === bob.email, from, to));
    const older = dayOf(ago(39));
    const all = await ids(`date_from=${older}`);
    expect(all.ids).toEqual(expected(() => true, older));
    expect(all.pages[0]).toMatchObject({ date_from: older, window_days: 40 });
  });

  it('a date_from in the future answers an empty page; date_from after date_to stays 400', async () => {
    const future = dayOf(new Date(now + 3 * DAY));
    const response = await adminClient.get(`/api/admin/audit-logs?date_from=${future}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ items: [], total: 0, has_next: false, next_cursor: null });
    const range = await adminClient.get(`/api/admin/audit-logs?date_from=${dayOf(ago(1))}&date_to=${dayOf(ago(3))}`);
    expect(range.status).toBe(400);
    expect(range.body).toEqual({ error: 'invalid_date_range' });
  });

  it('cursor pages cost one page each: 25 rows, the next 25, then the rest and a null cursor', async () => {
    const pages = await allPages<AuditEntry>('/api/admin/audit-logs?page_size=25&actor=%40acme.test');
    expect(pages.map((page) => page.items.length)).toEqual([
      25,
      expected((e) => e.actor_email === alice.email || e.actor_email === alina.email).length - 25,
    ]);
    expect(pages[0].next_cursor).toEqual(expect.any(String));
    const cursor = pages[0].next_cursor as string;
    const tampered = `${cursor.slice(0, -3)}xyz`;
    const refused = await adminClient.get(`/api/admin/audit-logs?page_size=25&actor=%40acme.test&cursor=${encodeURIComponent(tampered)}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'invalid_cursor' });
    // the same cursor with another filter is foreign
    const foreign = await adminClient.get(`/api/admin/audit-logs?page_size=25&actor=bob&cursor=${encodeURIComponent(cursor)}`);
    expect(foreign.body).toEqual({ error: 'invalid_cursor' });
  });

  it('the action, @domain and former-address filters merge the shards of each month, newest month first, across cursor pages', async () => {
    // a routine action (its references split in AUDIT_SHARDS shards a month) by one domain, over two months,
    // each entry's id chosen so the entries go round every shard of each partition
    const idInShard = (shard: number) => {
      for (;;) {
        const id = randomUUID();
        if (auditShardOf(id) === shard) return id;
      }
    };
    const domain = `shards-${randomUUID().slice(0, 8)}.test`;
    const times = Array.from(
      { length: 30 },
      (_, i) => new Date(Date.parse(i < 15 ? '2001-04-20T12:00:00Z' : '2001-03-20T12:00:00Z') - i * 60_000),
    );
    const entries = times.map((at, i) =>
      auditItems(
        { action: 'auth.login', actor: { email: `someone${i % 3}@${domain}` }, entityType: 'user', entityId: `shards-${i}` },
        at,
        idInShard(i % AUDIT_SHARDS),
      ),
    );
    await writeAuditEntries(entries);
    const newestFirst = [...entries.map(([entry]) => entry as Seeded)].sort((a, b) => (a.sk < b.sk ? 1 : -1)).map((entry) => entry.id);
    const window = 'date_from=2001-03-01&date_to=2001-04-30';
    for (const filter of ['action=auth.login', `actor=%40${domain}`]) {
      const pages = await allPages<AuditEntry>(`/api/admin/audit-logs?page_size=25&${window}&${filter}`);
      expect(
        pages.map((page) => page.items.length),
        filter,
      ).toEqual([25, 5]);
      expect(
        pages.flatMap((page) => page.items.map((entry) => entry.id)),
        filter,
      ).toEqual(newestFirst);
      // the entries as written, read by key from the references the filter found
      expect(pages[0].items[0], filter).toMatchObject({ action: 'auth.login', actor_email: `someone0@${domain}`, entity_id: 'shards-0' });
    }
    // an address no account holds: its domain's partitions of both months, filtered by the address
    const former = await allPages<AuditEntry>(`/api/admin/audit-logs?page_size=25&${window}&actor=someone1%40${domain}`);
    expect(former.flatMap((page) => page.items.map((entry) => entry.id))).toEqual(
      newestFirst.filter((id) => entries.findIndex(([entry]) => entry.id === id) % 3 === 1),
    );
  });

  it('per-user audit pages by cursor (25 a page), with no count of the history: "26+" until the last page', async () => {
    const user = await createTestUser();
    const entries = Array.from({ length: 30 }, (_, i) =>
      auditItems({ action: 'audit.test.user', entityType: 'user', entityId: user.id }, new Date(now - i * 1000)),
    );
    await writeAuditEntries(entries);
    const pages = await allPages<AuditEntry>(`/api/admin/users/${user.id}/audit-logs`);
    expect(pages.map((page) => page.items.length)).toEqual([25, 5]);
    expect(pages[0]).toMatchObject({ total: 26, total_is_estimate: true });
    expect(pages[1]).toMatchObject({ total: 30, total_is_estimate: false });
    expect(pages.flatMap((page) => page.items.map((entry: { id: string }) => entry.id))).toEqual(entries.map(([entry]) => entry.id));
  });
});

describe('hard-delete preview of a heavy account', () => {
  it(`counts audit entries up to ${PREVIEW_AUDIT_CAP} and says the count is a lower bound`, async () => {
    const heavy = await createTestUser();
    const now = Date.now();
    // every other one written before the references (counted through the legacy index)
    const entries = Array.from({ length: PREVIEW_AUDIT_CAP + 1 }, (_, i) => {
      const input = { action: 'audit.test.heavy', entityType: 'user', entityId: heavy.id };
      return i % 2 ? [legacyAuditItem(input, new Date(now - i * 1000))] : auditItems(input, new Date(now - i * 1000));
    }).flat();
    await batchWriteItems(entries.map((Item) => ({ PutRequest: { Item } })));
    const preview = await adminClient.get<HardDeletePreview>(`/api/admin/users/${heavy.id}/hard-delete/preview`);
    expect(preview.status).toBe(200);
    expect(preview.body.counts).toMatchObject({ audit_entries: PREVIEW_AUDIT_CAP, audit_entries_as_actor: 0 });
    expect(preview.body.at_least).toEqual(['audit_entries']);
    // below the cap the counts are exact and nothing is named; an entry held by both its
    // references and the legacy index (converted half way) is counted once
    const light = await createTestUser();
    const input = { action: 'audit.test.light', actor: { id: light.id }, entityType: 'user', entityId: light.id };
    const legacy = legacyAuditItem(input, new Date(now - 5000));
    const [, ...legacyRefs] = auditItems(input, new Date(now - 5000), String(legacy.id));
    const bystander = { action: 'audit.test.light', actor: { id: light.id }, entityType: 'user', entityId: heavy.id };
    const seeded = [legacy, ...legacyRefs, ...auditItems(input, new Date(now - 4000)), ...auditItems(bystander, new Date(now - 3000))];
    seeded.push(legacyAuditItem(bystander, new Date(now - 2000)));
    await batchWriteItems(seeded.map((Item) => ({ PutRequest: { Item } })));
    const exact = await adminClient.get<HardDeletePreview>(`/api/admin/users/${light.id}/hard-delete/preview`);
    expect(exact.body.counts).toMatchObject({ audit_entries: 2, audit_entries_as_actor: 2 });
    expect(exact.body.at_least).toBeUndefined();
  });
});
