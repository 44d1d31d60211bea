import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { exportAccountData, exportAuditPage, exportDocument } from '../../functions/accounts/data-export';
import { hashPassword } from '../../functions/accounts/passwords';
import { auditItems } from '../../functions/lib/audit';
import { auditEmailHash } from '../../functions/lib/audit-privacy';
import { batchWriteItems } from '../../functions/lib/batch-items';
import { storedAuditEntries } from '../helpers/audit-entries';
import { legacyAuditItem } from '../helpers/legacy-audit';
import { resetConfigForTests } from '../../functions/lib/config';
import { db, tableName } from '../../functions/lib/db';
import { readStats } from '../../functions/lib/stats';
import { keys } from '../../functions/lib/table';
import { getUserById } from '../../functions/lib/users';
import { program } from '../../functions/program/content';
import type { AuditEntry, ListPage } from '../../shared/admin-types';
import type { accountDeleteResponse } from '../../shared/api-schemas/learner';
import { latestEmail, useApi } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';
import { finishModule, finishProgram } from './program-helpers';

const api = useApi();
const PASSWORD = 'a-long-and-private-passphrase';

/** The parts of `GET /api/account/export` this test reads (the file holds more). */
interface AccountExport {
  profile: unknown;
  notification_preferences: unknown;
  enrollments: unknown[];
  progress: Array<{ module_id: string; status: string }>;
  task_answers: unknown[];
  sessions: unknown[];
  audit_entries: Array<{ action: string }>;
  audit_next_cursor: string | null;
}

async function learnerWithPassword(overrides: Parameters<typeof createTestUser>[0] = {}) {
  const user = await createTestUser({ password_hash: await hashPassword(PASSWORD), ...overrides });
  const client = api.client({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36' });
  await signIn(client, user);
  return { user, client };
}

/**
 * Five audit entries about the account, newest first, a minute ahead of now; every other one
 * written before the references (the legacy entity index): one history, merged. Returns the entries.
 */
async function seedMixedHistory(userId: string): Promise<Record<string, unknown>[]> {
  const now = Date.now();
  const written = Array.from({ length: 5 }, (_, i) => {
    const input = { action: 'audit.test.export', entityType: 'user', entityId: userId };
    const at = new Date(now + 60_000 - i * 1000);
    return i % 2 ? [legacyAuditItem(input, at)] : auditItems(input, at);
  });
  await batchWriteItems(written.flat().map((Item) => ({ PutRequest: { Item } })));
  return written.map(([entry]) => entry);
}

describe('GET /api/account/export', () => {
  it('answers a JSON attachment with the profile, enrollment, progress, task answers, preference, sessions and own audit entries — never a secret', async () => {
    const { user, client } = await learnerWithPassword();
    expect((await client.post('/api/enroll')).status).toBe(200);
    await finishModule(client, program().modules[0].slug);
    expect((await client.post('/api/settings/notifications', { reminder_frequency: 'weekly' })).status).toBe(200);
    const change = await client.post('/api/settings/password', {
      current_password: PASSWORD,
      new_password: `${PASSWORD}-2`,
      confirm_new_password: `${PASSWORD}-2`,
    });
    expect(change.status).toBe(200);

    const response = await client.get<AccountExport>('/api/account/export');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="career-program-data-\d{4}-\d{2}-\d{2}\.json"$/);
    const data = response.body;
    expect(data.profile).toMatchObject({
      id: user.id,
      email: user.email,
      first_name: user.first_name,
      last_name: user.last_name,
      status: 'active',
    });
    expect(data.notification_preferences).toEqual({ reminder_frequency: 'weekly', time_zone: 'UTC' });
    expect(data.enrollments).toHaveLength(1);
    expect(data.enrollments[0]).toMatchObject({ program_id: program().id, completed_count: 1 });
    expect(
      data.progress.some(
        (p: { module_id: string; status: string }) => p.module_id === program().modules[0].module_id && p.status === 'completed',
      ),
    ).toBe(true);
    expect(data.task_answers.length).toBeGreaterThan(0);
    expect(data.sessions.length).toBeGreaterThanOrEqual(1);
    expect(data.audit_entries.map((entry: { action: string }) => entry.action)).toContain('auth.password_changed');
    expect(data.audit_next_cursor).toBeNull(); // every entry is in this answer

    const text = JSON.stringify(data);
    expect(text).not.toContain(user.password_hash);
    expect(text).not.toMatch(/password_hash|code_hash|token_hash|"pk"|"gsi1pk"/);
  });

  it('lists the sessions not past their 12 hours, each ending then, not the items kept days longer for a rebuild', async () => {
    const { user, client } = await learnerWithPassword();
    const ended = new Date(Date.now() - 13 * 3600 * 1000).toISOString();
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.session(user.id, 'ended'),
          type: 'session',
          user_id: user.id,
          created_at: ended,
          last_seen_at: ended,
          expires_at: Math.floor(Date.now() / 1000) + 7 * 24 * 3600,
        },
      }),
    );
    const data = (await client.get<{ sessions: Array<{ created_at: string; expires_at: string }> }>('/api/account/export')).body;
    expect(data.sessions).toHaveLength(1);
    const [live] = data.sessions;
    expect(Date.parse(live.expires_at) - Date.parse(live.created_at)).toBe(12 * 3600 * 1000);
  });

  it('reads as a person would: answers in program order with the text of each task, the certificate, passkeys by name and date', async () => {
    const { user, client } = await learnerWithPassword();
    expect((await client.post('/api/enroll')).status).toBe(200);
    await finishProgram(client);
    const certificate = await client.get<{ verification_code: string }>('/api/certificate');
    expect(certificate.status).toBe(200);
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.passkey(user.id, 'test-credential-hash'),
          type: 'passkey',
          name: 'Work laptop',
          created_at: '2026-05-01T10:00:00.000Z',
          last_used_at: null,
          public_key: 'secret-ish-bytes',
        },
      }),
    );

    const data = (await client.get<Record<string, unknown>>('/api/account/export')).body as {
      answers_in_program_order: Array<{ week: number; module: string; task: string; done: boolean }>;
      certificates: unknown[];
      passkeys: unknown[];
    };
    const expected = program().modules.flatMap((module) =>
      module.tasks.filter((task) => task.required).map((task) => ({ week: module.week_number, module: module.title, task: task.label })),
    );
    expect(data.answers_in_program_order.map(({ week, module, task }) => ({ week, module, task }))).toEqual(expected);
    expect(data.answers_in_program_order.every((entry) => entry.done)).toBe(true);
    expect(data.certificates).toEqual([
      expect.objectContaining({ verification_code: certificate.body.verification_code, first_name: user.first_name }),
    ]);
    expect(data.passkeys).toEqual([{ name: 'Work laptop', created_at: '2026-05-01T10:00:00.000Z', last_used_at: null }]);
  });

  it('names an administrator acting on the account only as "an administrator", without their address or browser', async () => {
    const { user, client } = await learnerWithPassword();
    const now = Date.now();
    // written before the references: found through the legacy entity index
    const byAdmin = legacyAuditItem(
      {
        action: 'admin.user.lock',
        actor: { id: 'admin-1', email: 'ops-admin@example.com' },
        entityType: 'user',
        entityId: user.id,
        ip: '198.51.100.7',
        userAgent: 'AdminBrowser/1.0',
      },
      new Date(now + 120_000),
    );
    const [own, ...ownRefs] = auditItems(
      {
        action: 'auth.login',
        actor: { id: user.id, email: user.email },
        entityType: 'user',
        entityId: user.id,
        ip: '203.0.113.5',
        userAgent: 'Own/1.0',
      },
      new Date(now + 119_000),
    );
    await batchWriteItems([byAdmin, own, ...ownRefs].map((Item) => ({ PutRequest: { Item } })));
    const entries = (await client.get<{ audit_entries: AuditEntry[] }>('/api/account/export')).body.audit_entries;
    expect(entries.find((entry) => entry.id === byAdmin.id)).toMatchObject({
      action: 'admin.user.lock',
      actor_email: 'an administrator',
      actor_user_id: null,
      ip: null,
      user_agent: null,
    });
    expect(JSON.stringify(entries)).not.toMatch(/ops-admin|198\.51\.100\.7|AdminBrowser/);
    expect(entries.find((entry) => entry.id === own.id)).toMatchObject({
      actor_email: user.email,
      ip: '203.0.113.5',
      user_agent: 'Own/1.0',
    });
  });

  it('answers a long audit history in bounded parts: audit_next_cursor → ?audit_cursor= continues with the older entries', async () => {
    const { user, client } = await learnerWithPassword();
    const seeded = await seedMixedHistory(user.id);
    const history = (await client.get<{ audit_entries: AuditEntry[] }>('/api/account/export')).body.audit_entries;
    expect(history.slice(0, 5).map((entry) => entry.id)).toEqual(seeded.map((entry) => entry.id));

    // parts of 2: every entry once, newest first, in the order of the whole history
    const parts = [await exportAuditPage(user.id, undefined, 2)];
    while (parts.at(-1)!.audit_next_cursor) parts.push(await exportAuditPage(user.id, parts.at(-1)!.audit_next_cursor!, 2));
    expect(parts.slice(0, -1).every((part) => part.audit_entries.length === 2)).toBe(true);
    expect(parts.flatMap((part) => part.audit_entries.map((entry) => entry.id))).toEqual(history.map((entry) => entry.id));

    // the route answers a part for a cursor: the entries after it, and no file
    const part = await client.get<{ audit_entries: AuditEntry[]; audit_next_cursor: string | null }>(
      `/api/account/export?audit_cursor=${encodeURIComponent(parts[0].audit_next_cursor!)}`,
    );
    expect(part.status).toBe(200);
    expect(part.headers.get('content-disposition')).toBeNull();
    expect(Object.keys(part.body).sort()).toEqual(['audit_entries', 'audit_next_cursor']);
    expect(part.body.audit_entries.map((entry) => entry.id)).toEqual(history.slice(2).map((entry) => entry.id));
    expect(part.body.audit_next_cursor).toBeNull();
    for (const bad of ['%%%', 'AAECAwQ', 'x'.repeat(300)]) {
      const refused = await client.get(`/api/account/export?audit_cursor=${encodeURIComponent(bad)}`);
      expect(refused.status, bad).toBe(400);
      expect(refused.body, bad).toEqual({ error: 'invalid_cursor' });
    }
  });

  it('answers an account too large for one answer with a short-lived link to the whole file, which serves it once', async () => {
    const { user, client } = await learnerWithPassword();
    const seeded = await seedMixedHistory(user.id);
    const history = (await client.get<AccountExport>('/api/account/export')).body.audit_entries as AuditEntry[];
    expect(history.slice(0, 5).map((entry) => entry.id)).toEqual(seeded.map((entry) => entry.id)); // inline below the bound

    // a bound below this account's size stands in for megabytes of history
    process.env.EXPORT_INLINE_MAX_BYTES = '1000';
    resetConfigForTests();
    try {
      const linked = await client.get<{ download_url: string; expires_at: string }>('/api/account/export');
      expect(linked.status).toBe(200);
      expect(Object.keys(linked.body).sort()).toEqual(['download_url', 'expires_at']);
      expect(linked.headers.get('content-disposition')).toBeNull();
      const lifetime = Date.parse(linked.body.expires_at) - Date.now();
      expect(lifetime).toBeGreaterThan(0);
      expect(lifetime).toBeLessThanOrEqual(300_000);

      // the link is the credential (as a presigned URL is): no session needed, and one download only
      const file = await fetch(`${api.baseUrl}${linked.body.download_url}`);
      expect(file.status).toBe(200);
      const day = new Date().toISOString().slice(0, 10);
      expect(file.headers.get('content-disposition')).toBe(`attachment; filename="career-program-data-${day}.json"`);
      const text = await file.text();
      const data = JSON.parse(text) as AccountExport & { profile: { id: string } };
      expect(text).toBe(JSON.stringify(data, null, 2)); // the file a person reads, as the inline one is saved
      expect(data.profile.id).toBe(user.id);
      expect(data.audit_entries.map((entry) => (entry as AuditEntry).id)).toEqual(history.map((entry) => entry.id));
      expect('audit_next_cursor' in data).toBe(false); // a file, as the SPA saves an answer
      expect(text).not.toMatch(/password_hash|"pk"|"sk"/);
      expect((await fetch(`${api.baseUrl}${linked.body.download_url}`)).status).toBe(404);
    } finally {
      delete process.env.EXPORT_INLINE_MAX_BYTES;
      resetConfigForTests();
    }

    // a history longer than one answer: every page joined into the file, in order, as JSON.stringify lays it out
    const first = { ...(await exportAccountData(user, program().modules)), ...(await exportAuditPage(user.id, undefined, 2)) };
    const whole = (await exportDocument(user.id, first, 2)).toString('utf8');
    const joined = JSON.parse(whole) as AccountExport;
    expect(whole).toBe(JSON.stringify(joined, null, 2));
    expect(joined.audit_entries.map((entry) => (entry as AuditEntry).id)).toEqual(history.map((entry) => entry.id));
  });

  it('needs a session', async () => {
    const response = await api.client().get('/api/account/export');
    expect(response.status).toBe(401);
  });
});

describe('POST /api/account/delete', () => {
  it('soft-deletes the account with the reason "requested by the learner", ends every session and emails when the data will be erased', async () => {
    const { user, client } = await learnerWithPassword();
    const otherDevice = api.client();
    await signIn(otherDevice, user);
    const before = await readStats();

    const response = await client.post<z.infer<typeof accountDeleteResponse>>('/api/account/delete', { password: PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ok: true, status: 'deleted' });
    const erase = Date.parse(response.body.erase_after) - Date.parse(response.body.deleted_at);
    expect(erase).toBe(30 * 24 * 3600 * 1000);
    expect(response.setCookies.join(';')).toMatch(/__Host-session=;.*Max-Age=0/);

    const stored = await getUserById(user.id);
    expect(stored).toMatchObject({ status: 'deleted', deleted_reason: 'requested by the learner' });
    expect((await readStats()).users_deleted - before.users_deleted).toBe(1);
    expect((await otherDevice.get('/api/auth/me')).status).toBe(401);

    const mail = await latestEmail(user.email, /deleted/);
    expect(mail.text).toContain(response.body.erase_after.slice(0, 10));
    expect(mail.text).toMatch(/administrator/);
    expect(mail.text).toMatch(/restore/);
  });

  it('an administrator can restore the account until the retention ends', async () => {
    const { user, client } = await learnerWithPassword();
    expect((await client.post('/api/account/delete', { password: PASSWORD })).status).toBe(200);
    const admin = await createTestUser({ role: 'admin' });
    const adminClient = api.client();
    await signIn(adminClient, admin);
    const detail = await adminClient.get(`/api/admin/users/${user.id}`);
    expect(detail.body).toMatchObject({ status: 'deleted', deleted_reason: 'requested by the learner' });
    expect((await adminClient.post(`/api/admin/users/${user.id}/restore`)).status).toBe(200);
    expect((await getUserById(user.id))?.status).toBe('active');
  });

  it('refuses a wrong or missing password with 400 invalid_password and changes nothing', async () => {
    const { user, client } = await learnerWithPassword();
    for (const body of [{ password: 'not-my-password' }, {}]) {
      const response = await client.post('/api/account/delete', body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'invalid_password' });
    }
    expect(await getUserById(user.id)).toMatchObject({ status: 'active', version: user.version });
    expect((await client.get('/api/auth/me')).status).toBe(200);
    // each refusal is a security event of the account
    const exported = await client.get<AccountExport>('/api/account/export');
    expect(exported.body.audit_entries.filter((entry) => entry.action === 'account.self_delete_refused')).toHaveLength(2);
  });

  it('refuses an administrator (403 admin_self_delete): another admin removes an admin', async () => {
    const { user, client } = await learnerWithPassword({ role: 'admin' });
    const response = await client.post('/api/account/delete', { password: PASSWORD });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'admin_self_delete' });
    expect((await getUserById(user.id))?.status).toBe('active');
  });

  it('bounds password guessing with a stolen session (429 throttled after 10 tries an hour)', async () => {
    const { user, client } = await learnerWithPassword();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++)
      statuses.push((await client.post('/api/account/delete', { password: `guess-${attempt}` })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses[10]).toBe(429);
    // the throttled answer is in the audit log with the caller's address and browser
    const learnerAgent: unknown = expect.stringContaining('Chrome/140.0');
    const keyHash = await auditEmailHash(user.id);
    const throttled = (await storedAuditEntries<AuditEntry>('rate_limit', 'passwordChangesPerUser')).filter(
      (entry) => (entry.new_values as { key?: string } | null)?.key === keyHash,
    );
    expect(throttled).toEqual([expect.objectContaining({ action: 'security.throttled', ip: '127.0.0.1', user_agent: learnerAgent })]);
  });

  it('needs a session', async () => {
    expect((await api.client().post('/api/account/delete', { password: PASSWORD })).status).toBe(401);
  });

  it('writes the audit entry about the account, by the learner', async () => {
    const { user, client } = await learnerWithPassword();
    expect((await client.post('/api/account/delete', { password: PASSWORD })).status).toBe(200);
    const admin = await createTestUser({ role: 'admin' });
    const adminClient = api.client();
    await signIn(adminClient, admin);
    const audit = await adminClient.get<ListPage<AuditEntry>>(`/api/admin/users/${user.id}/audit-logs`);
    const entry = audit.body.items.find((item) => item.action === 'account.self_delete');
    expect(entry).toMatchObject({
      actor_user_id: user.id,
      entity_type: 'user',
      entity_id: user.id,
      new_values: { status: 'deleted', deleted_reason: 'requested by the learner' },
    });
    const guard = await db().send(new GetCommand({ TableName: tableName(), Key: keys.email(user.email) }));
    expect(guard.Item).toBeDefined(); // soft delete keeps the address reserved until erasure
  });
});
