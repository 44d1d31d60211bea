import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRateLimits } from '../../functions/accounts/rate-limit';
import { hashPassword } from '../../functions/accounts/passwords';
import { db, tableName } from '../../functions/lib/db';
import { keys } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { newVerificationCode } from '../../functions/program/certificate';
import { program } from '../../functions/program/content';
import { readStats } from '../../functions/lib/stats';
import { getUserById } from '../../functions/lib/users';
import { codeIn, emailsTo, latestEmail, useApi, type ApiClient } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';
import { auditItemsOf, setUserFields } from './program-helpers';

const api = useApi();
afterEach(() => configureRateLimits());
const PASSWORD = 'a-quiet-harbour-at-dawn';
const DAY_MS = 24 * 3600 * 1000;

/** A learner who can sign in with PASSWORD, signed in on the returned client. */
async function learner() {
  const user = await createTestUser({ password_hash: await hashPassword(PASSWORD) });
  const client = api.client();
  await signIn(client, user);
  return { user, client };
}

const login = (client: ApiClient, email: string, password = PASSWORD) => client.post('/api/auth/login', { email, password });
const restore = (client: ApiClient, email: string, password = PASSWORD) =>
  client.post<{ restore_pending: boolean; challenge_id: string }>('/api/auth/restore', { email, password });
const verifyRestore = (client: ApiClient, email: string, code: string, challengeId: string) =>
  client.post('/api/auth/restore/verify', { email, code, challenge_id: challengeId });
/** A certificate as issuing writes it (the learner's item and its public copy), without walking the program. */
async function issueCertificate(user: UserRecord): Promise<string> {
  const record = {
    verification_code: newVerificationCode(),
    user_id: user.id,
    program_id: program().id,
    program_title: program().title,
    first_name: user.first_name,
    last_name: user.last_name,
    completed_at: new Date().toISOString(),
    issued_at: new Date().toISOString(),
  };
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...keys.userCertificate(user.id, record.program_id), ...record } }));
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...keys.certificate(record.verification_code), ...record } }));
  return record.verification_code;
}

const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');

describe('restoring an account its owner deleted', () => {
  it('answers 403 account_deleted to the right password only, restores with the emailed code, and brings back lists, counters and the certificate', async () => {
    const { user, client } = await learner();
    const certificateCode = await issueCertificate(user);
    const publicCheck = () => api.client().get(`/api/certificates/${certificateCode}`);
    expect((await publicCheck()).status).toBe(200);

    const beforeDelete = await readStats();
    expect((await client.post('/api/account/delete', { password: PASSWORD })).status).toBe(200);
    // The confirmation names a person to write to, and answers go there.
    const deletionMail = await latestEmail(user.email, /deleted/);
    expect(deletionMail.replyTo).toEqual(['support@career-program.local']);
    expect(deletionMail.text).toContain('support@career-program.local');
    // While deleted the certificate answers as an unknown code.
    expect(await publicCheck()).toMatchObject({ status: 404, body: { error: 'certificate_not_found' } });

    const browser = api.client();
    expect(await login(browser, user.email, 'not-the-password')).toMatchObject({ status: 401, body: { error: 'invalid_credentials' } });
    const refused = await login(browser, user.email);
    expect(refused.status).toBe(403);
    expect(Object.keys(refused.body).sort()).toEqual(['erase_after', 'error']);
    expect(refused.body.error).toBe('account_deleted');
    expect(Date.parse(String(refused.body.erase_after)) - Date.parse((await getUserById(user.id))!.deleted_at!)).toBe(30 * DAY_MS);

    expect(await restore(browser, user.email, 'not-the-password')).toMatchObject({ status: 401, body: { error: 'invalid_credentials' } });
    const started = await restore(browser, user.email);
    expect(started.status).toBe(200);
    expect(started.body.restore_pending).toBe(true);
    expect(started.body.challenge_id).toMatch(/^[\w-]{16,}$/);
    expect(started.setCookies.join(';')).toMatch(/__Host-login-challenge=/);
    const restoreCode = codeIn(await latestEmail(user.email, /restore/i));
    const challengeId = started.body.challenge_id;

    // The code is no sign-in code, counts tries, and works only in the browser that asked for it.
    expect((await browser.post('/api/auth/verify-2fa', { email: user.email, code: restoreCode, challenge_id: challengeId })).status).toBe(
      400,
    );
    const wrong = await verifyRestore(browser, user.email, wrongFor(restoreCode), challengeId);
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_code', attempts_left: 3 } });
    expect((await verifyRestore(api.client(), user.email, restoreCode, challengeId)).body).toMatchObject({ error: 'invalid_code' });
    expect((await getUserById(user.id))?.status).toBe('deleted');

    const restored = await verifyRestore(browser, user.email, restoreCode, challengeId);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ ok: true, user: { id: user.id, email: user.email } });
    expect((await browser.get('/api/auth/me')).status).toBe(200);

    const stored = await getUserById(user.id);
    expect(stored).toMatchObject({ status: 'active' });
    expect(stored).not.toHaveProperty('deleted_at');
    expect(stored).not.toHaveProperty('deleted_by');
    const afterRestore = await readStats();
    expect(afterRestore.users_deleted - beforeDelete.users_deleted).toBe(0);
    expect(afterRestore.users_total - beforeDelete.users_total).toBe(0);
    expect(await publicCheck()).toMatchObject({ status: 200, body: { status: 'valid' } });
    const audit = await auditItemsOf(user.id);
    expect(audit.find((entry) => entry.action === 'account.self_restore')).toMatchObject({
      actor_user_id: user.id,
      new_values: { status: 'active' },
    });
    // The code is spent, and a sign-in works as before.
    expect((await verifyRestore(browser, user.email, restoreCode, challengeId)).status).toBe(400);
    expect(await login(api.client(), user.email)).toMatchObject({ status: 200, body: { two_factor_pending: true } });
  });

  it('keeps the generic refusal for an account an administrator deleted, or once the retention period is over', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const adminClient = api.client();
    await signIn(adminClient, admin);
    const byAdmin = await learner();
    expect((await adminClient.post(`/api/admin/users/${byAdmin.user.id}/soft-delete`, { reason: 'requested by the learner' })).status).toBe(
      200,
    );
    const expired = await learner();
    expect((await expired.client.post('/api/account/delete', { password: PASSWORD })).status).toBe(200);
    await setUserFields(expired.user.id, { deleted_at: new Date(Date.now() - 31 * DAY_MS).toISOString() });

    for (const { user } of [byAdmin, expired]) {
      const client = api.client();
      expect(await login(client, user.email)).toMatchObject({ status: 401, body: { error: 'invalid_credentials' } });
      expect(await restore(client, user.email)).toMatchObject({ status: 401, body: { error: 'invalid_credentials' } });
      expect((await getUserById(user.id))?.status).toBe('deleted');
    }
  });

  it('answers a right password on an account that is not deleted exactly as a wrong one, and counts it as a failed try', async () => {
    configureRateLimits({ loginFailuresPerAccount: { limit: 3, windowSeconds: 3600 } });
    const { user: live } = await learner();
    const { user: other } = await learner();
    const wrong = await restore(api.client(), other.email, 'not-the-password');
    const right = await restore(api.client(), live.email);
    // the same status, body, cookies and headers (only the date and request ids differ)
    expect(comparable(right)).toEqual(comparable(wrong));
    expect(comparable(right)).toMatchObject({ status: 401, body: { error: 'invalid_credentials' }, cookies: [] });
    expect(comparable(right).headers.map(([name]) => name)).toContain('content-type');
    // counted in the same pool as a wrong password: the account's hourly tries run out alike
    const statuses = async (email: string, password: string) => {
      const seen: number[] = [];
      for (let attempt = 0; attempt < 3; attempt++) seen.push((await restore(api.client(), email, password)).status);
      return seen;
    };
    expect(await statuses(other.email, 'not-the-password')).toEqual([401, 401, 429]);
    expect(await statuses(live.email, PASSWORD)).toEqual([401, 401, 429]);
    expect(await emailsTo(live.email)).toEqual([]);
    expect((await getUserById(live.id))?.status).toBe('active');
    const failures = (await auditItemsOf(live.id)).filter((entry) => entry.action === 'auth.login_failed');
    expect(failures.map((entry) => entry.new_values)).toEqual(Array(3).fill(expect.objectContaining({ reason: 'not_deleted' })));
  });
});

/** What a caller can tell two answers apart by: everything but the date and the request's ids. */
const comparable = (response: Awaited<ReturnType<typeof restore>>) => ({
  status: response.status,
  body: response.body,
  cookies: response.setCookies,
  headers: [...response.headers.entries()].filter(([name]) => !VARYING_HEADERS.test(name)),
});
const VARYING_HEADERS = /^(date|apigw-requestid|x-amzn-requestid|x-amz-apigw-id|x-amzn-trace-id|content-length)$/;
