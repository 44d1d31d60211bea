import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_EXPORT_COLUMNS, USER_EXPORT_COLUMNS } from '../../functions/admin/exports';
import { SESSION_COOKIE } from '../../functions/lib/session';
import type { UserRecord } from '../../functions/lib/user-record';
import { program } from '../../functions/program/content';
import { enroll } from '../../functions/program/enroll';
import type { AdminUserListItem, AuditEntry, ListPage } from '../../shared/admin-types';
import { useApi, type ApiClient } from '../helpers/api';
import { createTestUser, createTestUsers, signIn } from '../helpers/users';

const api = useApi();
let admin: UserRecord;
let adminClient: ApiClient;
const AGENT = '=cmd|" /C calc"!A0';

beforeAll(async () => {
  admin = await createTestUser({ role: 'admin', email: `admin-export-${Date.now()}@example.com` });
  adminClient = api.client({ userAgent: AGENT });
  await signIn(adminClient, admin);
});

/** A strict RFC 4180 reader (quoted fields, doubled quotes, CRLF records) for checking the files. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  expect(field, 'the file ends with CRLF').toBe('');
  return rows;
}

const objects = (rows: string[][]) => rows.slice(1).map((row) => Object.fromEntries(rows[0].map((name, i) => [name, row[i]])));

describe('GET /api/admin/users/export.csv', () => {
  const tag = `exportz${randomUUID().slice(0, 6)}`;
  let users: UserRecord[];

  beforeAll(async () => {
    users = [];
    for (const first of ['=HYPERLINK("http://x")', '+1+1', '-2+3', '@SUM(A1)', 'Plain, "quoted"'])
      users.push(await createTestUser({ first_name: first, last_name: `${tag} ${users.length}` }));
    users.push(await createTestUser({ first_name: 'Unverified', last_name: `${tag} u`, verified: false }));
    expect((await adminClient.post(`/api/admin/users/${users[1].id}/lock`)).status).toBe(200);
  });

  it('answers the list with its search as a CSV file: header row, RFC 4180, formula cells neutralised, audited', async () => {
    const response = await adminClient.get<string>(`/api/admin/users/export.csv?query=${tag}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    // the filters are in the file name
    expect(response.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="users-${tag}-\\d{8}-\\d{4}\\.csv"$`));
    expect(response.headers.get('x-export-truncated')).toBeNull();
    const rows = parseCsv(response.body);
    expect(rows[0]).toEqual(USER_EXPORT_COLUMNS);
    const byId = new Map(objects(rows).map((row) => [row.id, row]));
    // the default scope (not deleted) holds all six; the locked one too
    expect([...byId.keys()].sort()).toEqual(users.map((user) => user.id).sort());
    expect(byId.get(users[0].id)).toMatchObject({
      first_name: `'=HYPERLINK("http://x")`,
      email: users[0].email,
      status: 'active',
      role: 'learner',
      completion_pct: '0',
    });
    expect(byId.get(users[1].id)).toMatchObject({ first_name: "'+1+1", status: 'locked', is_locked: 'true' });
    expect(byId.get(users[2].id)!.first_name).toBe("'-2+3");
    expect(byId.get(users[3].id)!.first_name).toBe("'@SUM(A1)");
    expect(byId.get(users[4].id)!.first_name).toBe('Plain, "quoted"');
    expect(response.body).toContain('"Plain, ""quoted"""');

    const log = await adminClient.get<ListPage<AuditEntry>>('/api/admin/audit-logs?action=admin.export_users');
    const entry = log.body.items.find((item) => item.actor_user_id === admin.id);
    expect(entry).toMatchObject({
      action: 'admin.export_users',
      actor_email: admin.email,
      entity_type: 'export',
      entity_id: 'users',
      new_values: { filters: { query: tag }, rows: 6, truncated: false },
    });
  });

  it('opens in a spreadsheet as written: UTF-8 byte order mark, dates and times it reads, verified, deletion and current module', async () => {
    const mark = `exportbom${randomUUID().slice(0, 6)}`;
    const zoe = await createTestUser({ first_name: 'Zoë', last_name: `${mark} Łukasz` });
    await enroll(zoe, new Date());
    const gone = await createTestUser({ first_name: 'Gone', last_name: `${mark} d`, verified: false });
    expect((await adminClient.post(`/api/admin/users/${gone.id}/soft-delete`, { reason: 'asked by phone' })).status).toBe(200);

    const path = `/api/admin/users/export.csv?query=${mark}&status=all`;
    const raw = await fetch(`${api.baseUrl}${path}`, { headers: { cookie: `${SESSION_COOKIE}=${adminClient.cookie(SESSION_COOKIE)}` } });
    expect(raw.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="users-all-${mark}-\\d{8}-\\d{4}\\.csv"$`));
    const bytes = Buffer.from(await raw.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const byId = new Map(objects(parseCsv(bytes.subarray(3).toString('utf8'))).map((row) => [row.id, row]));
    const first = program().modules[0];
    expect(byId.get(zoe.id)).toMatchObject({
      first_name: 'Zoë',
      last_name: `${mark} Łukasz`,
      verified: 'true',
      deleted_at: '',
      deleted_reason: '',
      current_module: `W${first.week_number} · ${first.title}`,
    });
    expect(byId.get(zoe.id)!.created_at).toBe(zoe.created_at.slice(0, 19).replace('T', ' '));
    expect(byId.get(zoe.id)!.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(byId.get(gone.id)).toMatchObject({ status: 'deleted', verified: 'false', deleted_reason: 'asked by phone', current_module: '' });
    expect(byId.get(gone.id)!.deleted_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('honours the status and cohort filters like the list', async () => {
    const locked = objects(parseCsv((await adminClient.get<string>(`/api/admin/users/export.csv?query=${tag}&status=locked`)).body));
    expect(locked.map((row) => row.id)).toEqual([users[1].id]);
    const unverified = objects(
      parseCsv((await adminClient.get<string>(`/api/admin/users/export.csv?query=${tag}&filter=unverified`)).body),
    );
    expect(unverified.map((row) => row.id)).toEqual([users[5].id]);
    // the same rows as the screen's list with the same filters
    const list = await adminClient.get<ListPage<AdminUserListItem>>(`/api/admin/users?query=${tag}&status=active&page_size=100`);
    const active = objects(parseCsv((await adminClient.get<string>(`/api/admin/users/export.csv?query=${tag}&status=active`)).body));
    expect(active.map((row) => row.id)).toEqual(list.body.items.map((item: { id: string }) => item.id));
  });

  it('reads every page of a list longer than one page (cursors)', async () => {
    const many = `exportmany${randomUUID().slice(0, 6)}`;
    const ids = (await createTestUsers(Array.from({ length: 103 }, (_, i) => ({ last_name: `${many} ${i}` })))).map((user) => user.id);
    const rows = objects(parseCsv((await adminClient.get<string>(`/api/admin/users/export.csv?query=${many}`)).body));
    expect(rows.map((row) => row.id).sort()).toEqual(ids.sort());
  });

  it('refuses an unknown status or filter (400), without a session (401) and for a learner (403)', async () => {
    expect(await adminClient.get('/api/admin/users/export.csv?status=nope')).toMatchObject({
      status: 400,
      body: { error: 'invalid_status' },
    });
    expect(await adminClient.get('/api/admin/users/export.csv?filter=nope')).toMatchObject({
      status: 400,
      body: { error: 'invalid_filter' },
    });
    expect(await api.client().get('/api/admin/users/export.csv')).toMatchObject({ status: 401 });
    const learner = api.client();
    await signIn(learner, await createTestUser());
    expect(await learner.get('/api/admin/users/export.csv')).toMatchObject({ status: 403, body: { error: 'admin_required' } });
  });
});

describe('GET /api/admin/audit-logs/export.csv', () => {
  it('answers the log with its filters as a CSV file, neutralising formula cells, audited', async () => {
    const user = await createTestUser();
    expect((await adminClient.post(`/api/admin/users/${user.id}/lock`)).status).toBe(200);
    expect((await adminClient.post(`/api/admin/users/${user.id}/unlock`)).status).toBe(200);
    const response = await adminClient.get<string>(`/api/admin/audit-logs/export.csv?entity_type=user&entity_id=${user.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="audit-log-user-${user.id}-\\d{8}-\\d{4}\\.csv"$`),
    );
    const rows = parseCsv(response.body);
    expect(rows[0]).toEqual(AUDIT_EXPORT_COLUMNS);
    const entries = objects(rows);
    expect(entries.map((entry) => entry.action)).toEqual(['admin.user.unlock', 'admin.user.lock']);
    expect(entries[1]).toMatchObject({ actor_email: admin.email, entity_type: 'user', entity_id: user.id, user_agent: `'${AGENT}` });
    expect(JSON.parse(entries[1].new_values)).toMatchObject({ status: 'locked' });

    const action = objects(
      parseCsv((await adminClient.get<string>(`/api/admin/audit-logs/export.csv?entity_id=${user.id}&action=admin.user.lock`)).body),
    );
    expect(action.map((entry) => entry.action)).toEqual(['admin.user.lock']);

    const log = await adminClient.get<ListPage<AuditEntry>>('/api/admin/audit-logs?action=admin.export_audit');
    const entry = log.body.items.find((item) => item.actor_user_id === admin.id);
    expect(entry).toMatchObject({
      entity_type: 'export',
      entity_id: 'audit_logs',
      new_values: { filters: { entity_id: user.id }, rows: expect.any(Number) as unknown },
    });
  });

  it('refuses an invalid date (400), without a session (401) and for a learner (403)', async () => {
    expect(await adminClient.get('/api/admin/audit-logs/export.csv?date_from=2026-13-01')).toMatchObject({
      status: 400,
      body: { error: 'invalid_date' },
    });
    expect(await adminClient.get('/api/admin/audit-logs/export.csv?date_from=2026-05-02&date_to=2026-05-01')).toMatchObject({
      status: 400,
      body: { error: 'invalid_date_range' },
    });
    expect(await api.client().get('/api/admin/audit-logs/export.csv')).toMatchObject({ status: 401 });
    const learner = api.client();
    await signIn(learner, await createTestUser());
    expect(await learner.get('/api/admin/audit-logs/export.csv')).toMatchObject({ status: 403 });
  });
});
