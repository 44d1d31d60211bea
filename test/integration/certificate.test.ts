import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../functions/lib/db';
import { keys } from '../../functions/lib/table';
import { program } from '../../functions/program/content';
import { newVerificationCode } from '../../functions/program/certificate';
import type { AdminUserDetail, AuditEntry, ListPage } from '../../shared/admin-types';
import type { CertificateView } from '../../shared/program-types';
import { useApi } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';
import { finishModule, finishProgram, setUserFields } from './program-helpers';
import { hardDeleteToEnd } from '../helpers/hard-delete';

const api = useApi();
const CODE = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;
/** `expect.any` / `expect.stringMatching` are typed `any`: held as `unknown` so the objects they go into stay type-checked. */
const anyString: unknown = expect.any(String);
const aCode: unknown = expect.stringMatching(CODE);
/** `GET /api/admin/users/{id}/hard-delete/preview`: what a hard delete would remove, by kind. */
interface HardDeletePreview {
  counts: Record<string, number>;
}

async function learner() {
  const user = await createTestUser({ first_name: 'Maya', last_name: 'Okafor' });
  const client = api.client();
  await signIn(client, user);
  expect((await client.post('/api/enroll')).status).toBe(200);
  return { user, client };
}

async function adminClient() {
  const admin = await createTestUser({ role: 'admin' });
  const client = api.client();
  await signIn(client, admin);
  return client;
}

// Each case walks a learner through the whole program over the API: more than the default 30 s
// while the other suites share the machine.
describe('certificate of completion', { timeout: 90_000 }, () => {
  it('is refused before every module is completed (403 program_not_completed) and issued once after', async () => {
    const { user, client } = await learner();
    await finishModule(client, program().modules[0].slug);
    const early = await client.get('/api/certificate');
    expect(early.status).toBe(403);
    expect(early.body).toMatchObject({ error: 'program_not_completed', completed: 1, total: program().modules.length });

    await finishProgram(client);
    const [first, second] = await Promise.all([
      client.get<CertificateView>('/api/certificate'),
      client.get<CertificateView>('/api/certificate'),
    ]);
    expect(first.status).toBe(200);
    expect(second.body.verification_code).toBe(first.body.verification_code); // two tabs: one certificate
    expect(first.body).toEqual({
      verification_code: aCode,
      first_name: 'Maya',
      last_name: 'Okafor',
      program_title: '4-Week Career Program',
      completed_at: anyString,
      issued_at: anyString,
      verify_url: `http://localhost:3000/certificates/${first.body.verification_code}`,
    });
    const stored = await db().send(new GetCommand({ TableName: tableName(), Key: keys.userCertificate(user.id, program().id) }));
    expect(stored.Item?.verification_code).toBe(first.body.verification_code);
  });

  it('anyone can check it by code without signing in; unknown or malformed codes answer 404', async () => {
    const { client } = await learner();
    await finishProgram(client);
    const { body: certificate } = await client.get<CertificateView>('/api/certificate');

    const anonymous = api.client();
    const check = await anonymous.get(`/api/certificates/${certificate.verification_code}`);
    expect(check.status).toBe(200);
    expect(check.body).toEqual({
      verification_code: certificate.verification_code,
      name: 'Maya Okafor',
      program_title: '4-Week Career Program',
      completed_at: certificate.completed_at,
      issued_at: certificate.issued_at,
      status: 'valid',
      revoked_at: null,
    });
    // a code typed by hand: any case, no dashes or spaces instead, look-alikes (O for 0, I or L for 1)
    const typed = certificate.verification_code.toLowerCase();
    for (const form of [typed, typed.replace(/-/g, ''), typed.replace(/-/g, ' '), typed.replace(/0/g, 'o').replace(/1/g, 'l')]) {
      const answer = await anonymous.get(`/api/certificates/${encodeURIComponent(form)}`);
      expect(answer.status, form).toBe(200);
      expect(answer.body.verification_code, form).toBe(certificate.verification_code);
    }
    for (const code of [newVerificationCode(), 'nope', 'AAAA-AAAA-AAA%21']) {
      const response = await anonymous.get(`/api/certificates/${encodeURIComponent(code)}`);
      expect(response.status, code).toBe(404);
      expect(response.body).toEqual({ error: 'certificate_not_found' });
    }
    // longer than any id or code: refused before anything is read (docs/api.md, path parameters)
    const overlong = await anonymous.get(`/api/certificates/${'x'.repeat(300)}`);
    expect(overlong.status).toBe(404);
    expect(overlong.body).toEqual({ error: 'not_found' });
  });

  it('reopening a module does not revoke an issued certificate', async () => {
    const { user, client } = await learner();
    await finishProgram(client);
    const { body: certificate } = await client.get<CertificateView>('/api/certificate');
    const admin = await adminClient();
    const reopen = await admin.post('/api/admin/modules/reopen', { user_id: user.id, module_id: program().modules[0].module_id });
    expect(reopen.status).toBe(200);
    const again = await client.get('/api/certificate');
    expect(again.status).toBe(200);
    expect(again.body.verification_code).toBe(certificate.verification_code);
  });

  it('an administrator can revoke it (audited): the public check then says revoked and the learner is refused', async () => {
    const { user, client } = await learner();
    await finishProgram(client);
    const { body: certificate } = await client.get<CertificateView>('/api/certificate');
    const admin = await adminClient();
    // the user detail (the admin drawer) shows the certificate
    expect((await admin.get<AdminUserDetail>(`/api/admin/users/${user.id}`)).body.certificate).toEqual({
      verification_code: certificate.verification_code,
      issued_at: anyString,
      completed_at: certificate.completed_at,
      revoked_at: null,
    });

    const revoke = await admin.post(`/api/admin/users/${user.id}/certificate/revoke`, { reason: 'Plagiarised answers' });
    expect(revoke.status).toBe(200);
    expect(revoke.body).toMatchObject({ ok: true, verification_code: certificate.verification_code, revoked_at: anyString });
    const again = await admin.post(`/api/admin/users/${user.id}/certificate/revoke`, {});
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'already_revoked' });

    const check = await api.client().get(`/api/certificates/${certificate.verification_code}`);
    expect(check.body).toMatchObject({ status: 'revoked', revoked_at: revoke.body.revoked_at });
    expect((await admin.get(`/api/admin/users/${user.id}`)).body.certificate).toMatchObject({
      verification_code: certificate.verification_code,
      revoked_at: revoke.body.revoked_at,
    });
    const mine = await client.get('/api/certificate');
    expect(mine.status).toBe(403);
    expect(mine.body).toEqual({ error: 'certificate_revoked' });

    const audit = await admin.get<ListPage<AuditEntry>>(`/api/admin/users/${user.id}/audit-logs`);
    const actions = audit.body.items.map((item) => item.action);
    expect(actions).toEqual(expect.arrayContaining(['admin.certificate.revoke', 'learner.certificate.issued']));
  });

  it('revoking when there is no certificate answers 404 no_certificate; learners cannot revoke', async () => {
    const { user, client } = await learner();
    const admin = await adminClient();
    expect((await admin.get(`/api/admin/users/${user.id}`)).body.certificate).toBeNull();
    const none = await admin.post(`/api/admin/users/${user.id}/certificate/revoke`, {});
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ error: 'no_certificate' });
    expect((await client.post(`/api/admin/users/${user.id}/certificate/revoke`, {})).status).toBe(403);
  });

  it('needs a session and an enrollment', async () => {
    expect((await api.client().get('/api/certificate')).status).toBe(401);
    const user = await createTestUser();
    const client = api.client();
    await signIn(client, user);
    const response = await client.get('/api/certificate');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'not_enrolled' });
  });

  it('a hard delete of the account removes the certificate and its public copy', async () => {
    const { user, client } = await learner();
    await finishProgram(client);
    const { body: certificate } = await client.get<CertificateView>('/api/certificate');
    const admin = await adminClient();
    expect((await admin.post(`/api/admin/users/${user.id}/soft-delete`, {})).status).toBe(200);
    await setUserFields(user.id, { deleted_at: new Date(Date.now() - 31 * 24 * 3600 * 1000).toISOString() });
    const preview = await admin.get<HardDeletePreview>(`/api/admin/users/${user.id}/hard-delete/preview`);
    expect(preview.body.counts.certificates).toBe(1);
    expect([200, 202]).toContain((await hardDeleteToEnd(admin, user)).status);
    expect(
      (await db().send(new GetCommand({ TableName: tableName(), Key: keys.certificate(certificate.verification_code) }))).Item,
    ).toBeUndefined();
    expect((await api.client().get(`/api/certificates/${certificate.verification_code}`)).status).toBe(404);
  });
});
