import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { recordActivity } from '../../functions/lib/activity';
import { auditItems } from '../../functions/lib/audit';
import { batchWriteItems } from '../../functions/lib/batch-items';
import { db, tableName } from '../../functions/lib/db';
import { readStats } from '../../functions/lib/stats';
import { keys } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { getUserById, searchItems } from '../../functions/lib/users';
import { program } from '../../functions/program/content';
import type {
  AdminSoftDeleteResult,
  AdminSummary,
  AdminUserDetail,
  AdminUserListItem,
  AuditEntry,
  ListPage,
} from '../../shared/admin-types';
import type { auditLogPage, hardDeletePreview } from '../../shared/api-schemas/admin';
import { codeIn, latestEmail, useApi, type ApiClient } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';
import { finishModule, setUserFields } from './program-helpers';
import { drainActivityStream } from '../../infra/local/activity-stream';
import { hardDeleteToEnd } from '../helpers/hard-delete';

type UserPage = ListPage<AdminUserListItem>;
type AuditPage = ListPage<AuditEntry>;

const api = useApi();
let admin: UserRecord;
let adminClient: ApiClient;

beforeAll(async () => {
  admin = await createTestUser({ role: 'admin', email: `admin-${Date.now()}@example.com` });
  adminClient = api.client({ userAgent: 'admin-test-agent' });
  await signIn(adminClient, admin);
});

const auditActions = async (userId: string) =>
  (await adminClient.get<AuditPage>(`/api/admin/users/${userId}/audit-logs`)).body.items.map((entry) => entry.action);

describe('user detail and profile edits', () => {
  it('answers the detail, 404 for an unknown id', async () => {
    const user = await createTestUser();
    const detail = await adminClient.get(`/api/admin/users/${user.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      id: user.id,
      email: user.email,
      status: 'active',
      is_locked: false,
      role: 'learner',
      verified: true,
      retention_days: 30,
      deleted_at: null,
      hard_delete_ready: false,
      hard_delete_available_at: null,
      enrollments: [],
      recent_activity: { last_login_at: null, last_progress_at: null, last_enrollment_at: null },
    });
    expect((await adminClient.get('/api/admin/users/nobody')).body).toEqual({ error: 'not_found' });
  });

  it('edits names (registration codes), changes the email: unique, unverified, a code sent, search follows', async () => {
    const user = await createTestUser({ first_name: 'Zelda', last_name: 'Quill' });
    const other = await createTestUser();
    expect((await adminClient.patch(`/api/admin/users/${user.id}`, { first_name: '  ' })).body).toEqual({ error: 'first_name_required' });
    expect((await adminClient.patch(`/api/admin/users/${user.id}`, { last_name: 'x'.repeat(101) })).body).toEqual({
      error: 'last_name_invalid',
    });
    expect((await adminClient.patch(`/api/admin/users/${user.id}`, { email: 'not-an-email' })).body).toEqual({ error: 'invalid_email' });
    const taken = await adminClient.patch(`/api/admin/users/${user.id}`, { email: other.email.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ error: 'email_taken' });

    const newEmail = `renamed-${Date.now()}@example.com`;
    const before = await readStats();
    const updated = await adminClient.patch(`/api/admin/users/${user.id}`, { first_name: ' Zora ', email: newEmail });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: user.id, first_name: 'Zora', last_name: 'Quill', email: newEmail, verified: false });
    expect((await readStats()).users_verified).toBe(before.users_verified - 1);
    expect(codeIn(await latestEmail(newEmail, /Verify your email/))).toMatch(/^\d{6}$/);
    // the guard moved
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.email(user.email) }))).Item).toBeUndefined();
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.email(newEmail) }))).Item?.user_id).toBe(user.id);
    // search by the new values, not the old
    const search = async (q: string) =>
      (await adminClient.get<UserPage>(`/api/admin/users?query=${encodeURIComponent(q)}`)).body.items.map((i: { id: string }) => i.id);
    expect(await search('ZOR')).toContain(user.id);
    expect(await search('zelda')).not.toContain(user.id);
    expect(await search('quil')).toContain(user.id);
    expect(await search(newEmail.slice(0, 12))).toEqual([user.id]);
    // unverified cohort now includes the account
    const unverified = (await adminClient.get<UserPage>('/api/admin/users?filter=unverified')).body.items;
    expect(unverified.map((i: { id: string }) => i.id)).toContain(user.id);
    // list items say so (the console's verification chip), in every list and in search
    expect(unverified.find((i: { id: string }) => i.id === user.id)).toMatchObject({ verified: false });
    expect((await adminClient.get(`/api/admin/users?query=${encodeURIComponent(newEmail)}`)).body.items).toEqual([
      expect.objectContaining({ id: user.id, verified: false }),
    ]);
    expect(
      (await adminClient.get<UserPage>('/api/admin/users?filter=unverified')).body.items.every(
        (i: { verified: boolean }) => i.verified === false,
      ),
    ).toBe(true);
    expect((await adminClient.get<UserPage>(`/api/admin/users?query=${encodeURIComponent(admin.email)}`)).body.items[0]).toMatchObject({
      id: admin.id,
      verified: true,
    });

    const [entry] = (await adminClient.get<AuditPage>(`/api/admin/users/${user.id}/audit-logs`)).body.items;
    expect(entry).toMatchObject({
      action: 'admin.user.update',
      actor_user_id: admin.id,
      actor_email: admin.email,
      entity_type: 'user',
      entity_id: user.id,
      old_values: { first_name: 'Zelda', email: user.email, verified: true },
      new_values: { first_name: 'Zora', email: newEmail, verified: false },
      user_agent: 'admin-test-agent',
    });
    expect(entry.ip).toBeTruthy();
  });

  it('keeps both of two concurrent edits', async () => {
    const user = await createTestUser();
    const [first, last] = await Promise.all([
      adminClient.patch(`/api/admin/users/${user.id}`, { first_name: 'Concurrent' }),
      adminClient.patch(`/api/admin/users/${user.id}`, { last_name: 'Writer' }),
    ]);
    expect([first.status, last.status]).toEqual([200, 200]);
    expect(await getUserById(user.id)).toMatchObject({ first_name: 'Concurrent', last_name: 'Writer' });
  });
});

describe('account status actions', () => {
  it('locks (ending sessions), refuses twice, unlocks; an admin cannot lock or delete themselves', async () => {
    const user = await createTestUser();
    const learner = api.client();
    await signIn(learner, user);
    expect((await learner.get('/api/auth/me')).status).toBe(200);
    const before = await readStats();

    const lock = await adminClient.post(`/api/admin/users/${user.id}/lock`);
    expect(lock.status).toBe(200);
    expect(lock.body).toEqual({ ok: true, status: 'locked', is_locked: true });
    expect((await learner.get('/api/auth/me')).status).toBe(401);
    expect((await adminClient.post(`/api/admin/users/${user.id}/lock`)).body).toEqual({ error: 'already_locked' });
    expect((await readStats()).users_locked).toBe(before.users_locked + 1);
    const locked = await adminClient.get<UserPage>('/api/admin/users?status=locked');
    expect(locked.body.items.map((i: { id: string }) => i.id)).toContain(user.id);
    expect(locked.body.total).toBe(before.users_locked + 1);

    expect((await adminClient.post(`/api/admin/users/${user.id}/unlock`)).body).toEqual({ ok: true, status: 'active', is_locked: false });
    expect((await adminClient.post(`/api/admin/users/${user.id}/unlock`)).body).toEqual({ error: 'not_locked' });
    expect((await readStats()).users_locked).toBe(before.users_locked);

    for (const path of ['lock', 'soft-delete']) {
      const self = await adminClient.post(`/api/admin/users/${admin.id}/${path}`);
      expect(self.status).toBe(400);
      expect(self.body).toEqual({ error: 'cannot_target_self' });
    }
    expect((await adminClient.delete(`/api/admin/users/${admin.id}?confirm_email=${admin.email}`)).body).toEqual({
      error: 'cannot_target_self',
    });
    expect((await adminClient.post('/api/admin/users/nobody/lock')).status).toBe(404);
    expect(await auditActions(user.id)).toEqual(['admin.user.unlock', 'admin.user.lock']);
  });

  it('invalidates sessions and sends a password reset', async () => {
    const user = await createTestUser();
    const learner = api.client();
    await signIn(learner, user);
    expect((await adminClient.post(`/api/admin/users/${user.id}/actions/invalidate-sessions`)).body).toEqual({ ok: true });
    expect((await learner.get('/api/auth/me')).status).toBe(401);
    expect((await getUserById(user.id))?.status).toBe('active');

    const reset = await adminClient.post(`/api/admin/users/${user.id}/reset-password`);
    expect(reset.status).toBe(200);
    expect(['sent', 'sandbox', 'allowlist_block']).toContain(reset.body.delivery);
    const link = /reset-password\?token=([\w%-]+)/.exec((await latestEmail(user.email, /Reset your password/)).text)?.[1];
    expect(link).toBeTruthy();
    expect((await api.client().get(`/api/auth/password-reset/validate?token=${link}`)).status).toBe(200);
    expect(await auditActions(user.id)).toEqual(['admin.user.reset_password', 'admin.user.invalidate_sessions']);
    expect((await adminClient.post('/api/admin/users/nobody/reset-password')).status).toBe(404);
  });

  it('soft-deletes and restores, with the counters and the lists following', async () => {
    const user = await createTestUser();
    const before = await readStats();
    const deleted = await adminClient.post<AdminSoftDeleteResult>(`/api/admin/users/${user.id}/soft-delete`, { reason: 'Asked by email' });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ status: 'deleted', deleted_reason: 'Asked by email' });
    expect(Date.parse(deleted.body.deleted_at)).not.toBeNaN();
    expect((await adminClient.post(`/api/admin/users/${user.id}/soft-delete`, {})).body).toEqual({ error: 'already_deleted' });
    // a deleted account is not edited (no mail to its address either), as lock and reset refuse it
    const edit = await adminClient.patch(`/api/admin/users/${user.id}`, { first_name: 'Renamed', email: `renamed-${user.email}` });
    expect([edit.status, edit.body]).toEqual([409, { error: 'already_deleted' }]);
    let stats = await readStats();
    expect([stats.users_total, stats.users_verified, stats.users_deleted]).toEqual([
      before.users_total - 1,
      before.users_verified - 1,
      before.users_deleted + 1,
    ]);
    const detail = (await adminClient.get<AdminUserDetail>(`/api/admin/users/${user.id}`)).body;
    expect(detail).toMatchObject({ status: 'deleted', deleted_reason: 'Asked by email', hard_delete_ready: false });
    expect(detail.hard_delete_available_at).toBeTypeOf('string');
    expect(detail.deleted_at).toBeTypeOf('string');
    expect(Date.parse(detail.hard_delete_available_at as string) - Date.parse(detail.deleted_at as string)).toBe(30 * 24 * 3600 * 1000);
    const live = await adminClient.get<UserPage>('/api/admin/users?page_size=100');
    expect(live.body.items.map((i: { id: string }) => i.id)).not.toContain(user.id);
    expect(live.body.total).toBe(stats.users_total);

    expect((await adminClient.post(`/api/admin/users/${user.id}/restore`)).body).toEqual({ status: 'active' });
    expect((await adminClient.post(`/api/admin/users/${user.id}/restore`)).body).toEqual({ error: 'not_deleted' });
    stats = await readStats();
    expect([stats.users_total, stats.users_verified, stats.users_deleted]).toEqual([
      before.users_total,
      before.users_verified,
      before.users_deleted,
    ]);
    expect(await auditActions(user.id)).toEqual(['admin.user.restore', 'admin.user.soft_delete']);
  });
});

describe('user list', () => {
  it('pages newest first with totals; unknown status → active + locked; page_size other than 25/50/100 → 25', async () => {
    for (let i = 0; i < 3; i++) await createTestUser({ first_name: `Pager${i}` });
    const page1 = await adminClient.get<UserPage>('/api/admin/users?status=bogus&page_size=7');
    expect(page1.status).toBe(200);
    expect(page1.body.page_size).toBe(25);
    const all = page1.body.items as Array<{ created_at: string }>;
    expect([...all].sort((a, b) => b.created_at.localeCompare(a.created_at))).toEqual(all);
    expect(page1.body.total).toBe((await readStats()).users_total);
    const search = await adminClient.get<UserPage>('/api/admin/users?query=pager&page_size=25');
    expect(search.body.total).toBe(3);
    // search results come in key order of the matched text (a key range: one page costs one page)
    expect(search.body.items.map((i: { first_name: string }) => i.first_name)).toEqual(['Pager0', 'Pager1', 'Pager2']);
    expect(search.body.has_next).toBe(false);
    const emptyPage = await adminClient.get('/api/admin/users?query=pager&page=2');
    expect(emptyPage.body).toMatchObject({ items: [], total: 3, has_next: false });
  });
});

describe('hard delete', () => {
  it('refuses before soft-delete, during retention and with a wrong email; then removes every item and anonymises audit entries', async () => {
    await drainActivityStream();
    const baseline = await readStats();
    const summaryBefore = (await adminClient.get<AdminSummary>('/api/admin/summary')).body;
    const user = await createTestUser({ first_name: 'Hilda', last_name: 'Hardcase' });
    const learner = api.client();
    await signIn(learner, user);
    expect((await learner.post('/api/enroll')).status).toBe(200);
    await finishModule(learner, program().modules[0].slug);
    await recordActivity(user.id, new Date(Date.now() - 2 * 24 * 3600 * 1000)); // an older day: a no-op after today's task save
    await drainActivityStream(); // the day counters of today's activity, before the hard delete takes them back
    expect((await adminClient.patch(`/api/admin/users/${user.id}`, { last_name: 'Hardcastle' })).status).toBe(200);
    // an entry of the person's own, with their address and browser (docs/security.md#privacy-of-the-audit-log)
    const own = auditItems({
      action: 'auth.login',
      actor: { id: user.id, email: user.email },
      entityType: 'user',
      entityId: user.id,
      ip: '198.51.100.9',
      userAgent: 'hilda-browser',
    });
    await batchWriteItems(own.map((Item) => ({ PutRequest: { Item } })));

    const notDeleted = await adminClient.delete(`/api/admin/users/${user.id}?confirm_email=${user.email}`);
    expect(notDeleted.status).toBe(409);
    expect(notDeleted.body).toEqual({ error: 'not_deleted' });
    expect((await adminClient.post(`/api/admin/users/${user.id}/soft-delete`, {})).status).toBe(200);
    const retention = await adminClient.delete(`/api/admin/users/${user.id}?confirm_email=${user.email}`);
    expect(retention.status).toBe(409);
    expect(retention.body.error).toBe('retention_active');
    expect(retention.body.available_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    // the retention window has passed
    await setUserFields(user.id, { deleted_at: new Date(Date.now() - 31 * 24 * 3600 * 1000).toISOString() });
    expect((await adminClient.get(`/api/admin/users/${user.id}`)).body.hard_delete_ready).toBe(true);
    const preview = await adminClient.get<z.infer<typeof hardDeletePreview>>(`/api/admin/users/${user.id}/hard-delete/preview`);
    expect(preview.status).toBe(200);
    expect(preview.body.counts).toMatchObject({
      profile: 1,
      sessions: 1,
      enrollments: 1,
      email_guard: 1,
      search_entries: 3,
      activity_days: 1,
    });
    expect(preview.body.counts.progress).toBeGreaterThanOrEqual(2);
    expect(preview.body.counts.tasks).toBeGreaterThanOrEqual(1);
    expect(preview.body.counts.audit_entries).toBe(3);

    const mismatch = await adminClient.delete(`/api/admin/users/${user.id}?confirm_email=someone@example.com`);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toEqual({ error: 'email_mismatch' });

    // the confirmation ignores case
    expect([200, 202]).toContain((await hardDeleteToEnd(adminClient, { id: user.id, email: user.email.toUpperCase() })).status);

    // no item of the account is left
    const partition = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `USER#${user.id}` },
      }),
    );
    expect(partition.Items).toEqual([]);
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.email(user.email) }))).Item).toBeUndefined();
    for (const item of [...searchItems(user), ...searchItems({ ...user, last_name: 'Hardcastle' })]) {
      expect((await db().send(new GetCommand({ TableName: tableName(), Key: { pk: item.pk, sk: item.sk } }))).Item).toBeUndefined();
    }
    const today = new Date().toISOString().slice(0, 10);
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.activity(today, user.id) }))).Item).toBeUndefined();
    expect((await adminClient.get(`/api/admin/users/${user.id}`)).status).toBe(404);

    // every aggregate is back where it was before the account enrolled
    const after = await readStats();
    for (const field of [
      'users_total',
      'users_verified',
      'users_deleted',
      'enrollments_total',
      'enrollment_percent_sum',
      'modules_completed_total',
      'modules_total',
    ] as const) {
      expect(after[field], field).toBe(baseline[field]);
    }
    await drainActivityStream();
    const summaryAfter = (await adminClient.get<AdminSummary>('/api/admin/summary')).body;
    expect(summaryAfter.cards).toEqual(summaryBefore.cards);
    expect(summaryAfter.series).toEqual(summaryBefore.series);

    // audit entries stay, without personal data
    const audit = await adminClient.get<AuditPage>(`/api/admin/users/${user.id}/audit-logs`);
    expect(audit.body.items.map((e) => e.action)).toEqual([
      'admin.user.hard_delete',
      'admin.user.soft_delete',
      'auth.login',
      'admin.user.update',
    ]);
    // the person's own IP and user agent are cleared; the admin's stay (their accountability)
    const ownAfter = (await db().send(new GetCommand({ TableName: tableName(), Key: { pk: own[0].pk, sk: own[0].sk } }))).Item!;
    expect(ownAfter).toMatchObject({ ip: null, user_agent: null, actor_email: 'deleted-user' });
    expect(audit.body.items[3].user_agent).toBe('admin-test-agent');
    const text = JSON.stringify(audit.body.items);
    expect(text).not.toContain(user.email);
    expect(text).not.toContain('Hardcase');
    expect(text).not.toContain('Hardcastle');
    expect(audit.body.items[3]).toMatchObject({
      old_values: { last_name: 'deleted-user' },
      new_values: { last_name: 'deleted-user' },
      actor_email: admin.email,
    });
  });
});

describe('hard delete of an account that acted on others', () => {
  it('scrubs its email from the audit entries it wrote about other accounts', async () => {
    const otherAdmin = await createTestUser({ role: 'admin', first_name: 'Otto', last_name: 'Operator' });
    const otherClient = api.client();
    await signIn(otherClient, otherAdmin);
    const learner = await createTestUser();
    expect((await otherClient.post(`/api/admin/users/${learner.id}/lock`, {})).status).toBe(200);
    const [before] = (await adminClient.get<AuditPage>(`/api/admin/users/${learner.id}/audit-logs`)).body.items;
    expect(before).toMatchObject({ action: 'admin.user.lock', actor_email: otherAdmin.email });

    expect((await adminClient.post(`/api/admin/users/${otherAdmin.id}/soft-delete`, {})).status).toBe(200);
    await setUserFields(otherAdmin.id, { deleted_at: new Date(Date.now() - 31 * 24 * 3600 * 1000).toISOString() });
    const preview = await adminClient.get<z.infer<typeof hardDeletePreview>>(`/api/admin/users/${otherAdmin.id}/hard-delete/preview`);
    expect(preview.body.counts.audit_entries_as_actor).toBe(1);
    expect([200, 202]).toContain((await hardDeleteToEnd(adminClient, otherAdmin)).status);

    const [after] = (await adminClient.get<AuditPage>(`/api/admin/users/${learner.id}/audit-logs`)).body.items;
    expect(after).toMatchObject({ id: before.id, action: 'admin.user.lock', actor_email: 'deleted-user' });
    expect(JSON.stringify(after)).not.toContain(otherAdmin.email);
  });
});

describe('audit log', () => {
  it('filters by actor, action, entity and dates, newest first, with a default 30-day window', async () => {
    const user = await createTestUser();
    await adminClient.post(`/api/admin/users/${user.id}/lock`);
    await adminClient.post(`/api/admin/users/${user.id}/unlock`);
    const today = new Date().toISOString().slice(0, 10);
    const byEntity = await adminClient.get<z.infer<typeof auditLogPage>>(`/api/admin/audit-logs?entity_type=user&entity_id=${user.id}`);
    expect(byEntity.status).toBe(200);
    expect(byEntity.body).toMatchObject({ total: 2, has_next: false, window_days: 30, date_to: today });
    expect(byEntity.body.items.map((e) => e.action)).toEqual(['admin.user.unlock', 'admin.user.lock']);

    const byActor = await adminClient.get<z.infer<typeof auditLogPage>>(
      `/api/admin/audit-logs?actor=${encodeURIComponent(admin.email.slice(0, 10).toUpperCase())}&action=admin.user.lock&date_from=${today}&date_to=${today}`,
    );
    expect(byActor.body.window_days).toBe(1);
    expect(byActor.body.items.length).toBeGreaterThanOrEqual(1);
    expect(byActor.body.items.every((e) => e.action === 'admin.user.lock' && e.actor_email === admin.email)).toBe(true);
    const paged = await adminClient.get<z.infer<typeof auditLogPage>>(
      `/api/admin/audit-logs?page_size=25&actor=${encodeURIComponent(admin.email)}`,
    );
    expect(paged.body.page_size).toBe(25);
    expect(paged.body.total).toBeGreaterThan(paged.body.items.length - 1);

    expect((await adminClient.get('/api/admin/audit-logs?date_from=2024-13-01')).body).toEqual({
      error: 'invalid_date',
      field: 'date_from',
    });
    expect((await adminClient.get('/api/admin/audit-logs?date_from=2024-02-01&date_to=2024-01-01')).body).toEqual({
      error: 'invalid_date_range',
    });
    expect((await adminClient.get('/api/admin/audit-logs?date_from=2020-01-01&date_to=2024-01-01')).body.error).toBe('date_range_too_long');
    const yesterday = new Date(Date.now() - 24 * 3600 * 1000).toISOString().slice(0, 10);
    expect((await adminClient.get(`/api/admin/audit-logs?entity_type=user&entity_id=${user.id}&date_to=${yesterday}`)).body.total).toBe(0);
  });
});
