import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../functions/accounts/passwords';
import { resetConfigForTests } from '../../functions/lib/config';
import { db, tableName } from '../../functions/lib/db';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { insertUser } from '../../functions/lib/users';
import { codeIn, emailsTo, useApi, type ApiClient } from '../helpers/api';
import { storedAuditEntries } from '../helpers/audit-entries';
import { SoftAuthenticator } from '../helpers/soft-authenticator';
import { signIn } from '../helpers/users';
import { setUserFields } from './program-helpers';

/**
 * Administrators sign in with a passkey where the stage says so (docs/security.md#administrators-sign-in-with-a-passkey):
 * with `ADMIN_PASSKEY_REQUIRED` on, an administrator's password opens no code step and a code
 * opens no session, while the passkey signs in and learners are unaffected; with it off (dev,
 * local) the password and the code work for everyone. The operator's recovery
 * (`npm run make-admin -- <email> --allow-password-sign-in`) opens one password sign-in.
 */
const api = useApi();
const PASSWORD = 'cobalt lantern harbor';
const ORIGIN = 'http://localhost:3000';
const execFileAsync = promisify(execFile);

const requirePasskeys = (on: boolean) => {
  process.env.ADMIN_PASSKEY_REQUIRED = String(on);
  resetConfigForTests();
};
beforeEach(() => requirePasskeys(true));
afterEach(() => {
  delete process.env.ADMIN_PASSKEY_REQUIRED;
  resetConfigForTests();
});

async function makeAccount(role: 'admin' | 'learner'): Promise<UserRecord> {
  return insertUser({
    email: `${role}-${randomUUID().slice(0, 8)}@passkeys-required.example`,
    first_name: 'Ada',
    last_name: 'Byron',
    password_hash: await hashPassword(PASSWORD),
    role,
    verified: true,
  });
}

const loginCodes = async (email: string) => (await emailsTo(email)).filter((mail) => /login code/i.test(mail.subject));

/** The password step; answers its reply and whether a code was mailed. */
async function passwordStep(client: ApiClient, email: string) {
  const before = (await loginCodes(email)).length;
  const reply = await client.post<{ challenge_id: string; error?: string; message?: string }>('/api/auth/login', {
    email,
    password: PASSWORD,
  });
  if (reply.status === 200)
    await expect.poll(async () => (await loginCodes(email)).length, { timeout: 10_000, interval: 100 }).toBe(before + 1);
  return reply;
}

/** The code step of a password step that mailed one. */
async function codeStep(client: ApiClient, email: string, challengeId: string) {
  const code = codeIn((await loginCodes(email)).at(-1)!);
  return client.post<{ ok: boolean; error?: string }>('/api/auth/verify-2fa', { email, code, challenge_id: challengeId });
}

/** An administrator's passkey, added in a session of theirs (with the password, as Settings asks). */
async function addPasskey(user: UserRecord): Promise<SoftAuthenticator> {
  const client = api.client();
  await signIn(client, user);
  const authenticator = new SoftAuthenticator();
  const options = await client.post<{ challenge_id: string; options: PublicKeyCredentialCreationOptionsJSON }>(
    '/api/auth/passkeys/registration/options',
    { current_password: PASSWORD },
  );
  expect(options.status).toBe(200);
  const verified = await client.post('/api/auth/passkeys/registration/verify', {
    challenge_id: options.body.challenge_id,
    name: 'Security key',
    response: authenticator.register(options.body.options, ORIGIN),
  });
  expect(verified.status).toBe(201);
  return authenticator;
}

async function passkeySignIn(client: ApiClient, authenticator: SoftAuthenticator) {
  const options = await client.post<{ challenge_id: string; options: PublicKeyCredentialRequestOptionsJSON }>(
    '/api/auth/passkeys/authentication/options',
    {},
  );
  return client.post('/api/auth/passkeys/authentication/verify', {
    challenge_id: options.body.challenge_id,
    response: authenticator.authenticate(options.body.options, ORIGIN),
  });
}

const refusals = async (userId: string) =>
  (await storedAuditEntries<{ action: string; new_values: { reason?: string } | null }>('user', userId)).filter(
    (entry) => entry.action === 'auth.login_refused' && entry.new_values?.reason === 'passkey_required',
  );

describe('administrators sign in with a passkey (ADMIN_PASSKEY_REQUIRED on)', () => {
  it("refuses an administrator's password before any code is mailed, while their passkey signs in and a learner's password still works", async () => {
    const admin = await makeAccount('admin');
    const authenticator = await addPasskey(admin);
    const client = api.client();

    const refused = await passwordStep(client, admin.email);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: 'passkey_required',
      message: 'Administrators sign in with a passkey. Use "Sign in with a passkey".',
    });
    expect(await loginCodes(admin.email)).toEqual([]);
    expect(await refusals(admin.id)).toHaveLength(1);
    // a wrong password is the usual answer: the rule tells nothing to someone without the password
    expect((await client.post('/api/auth/login', { email: admin.email, password: 'not the password' })).status).toBe(401);

    expect((await passkeySignIn(client, authenticator)).status).toBe(200);
    expect((await client.get('/api/admin/summary')).status).toBe(200);

    const learner = await makeAccount('learner');
    const learnerClient = api.client();
    const step = await passwordStep(learnerClient, learner.email);
    expect(step.status).toBe(200);
    expect((await codeStep(learnerClient, learner.email, step.body.challenge_id)).status).toBe(200);
  }, 60_000);

  it('opens no session from a code whose password step came before the setting was turned on', async () => {
    const admin = await makeAccount('admin');
    const client = api.client();
    requirePasskeys(false);
    const step = await passwordStep(client, admin.email);
    expect(step.status).toBe(200);
    requirePasskeys(true);
    const verified = await codeStep(client, admin.email, step.body.challenge_id);
    expect(verified.status).toBe(403);
    expect(verified.body).toMatchObject({ error: 'passkey_required' });
    expect(verified.setCookies.some((cookie) => cookie.startsWith('__Host-session='))).toBe(false);
    expect((await client.get('/api/auth/me')).status).toBe(401);
  }, 60_000);

  it('refuses the restore of an administrator who deleted their account, before any code is mailed', async () => {
    const admin = await makeAccount('admin');
    await setUserFields(admin.id, { status: 'deleted', deleted_by: 'self', deleted_at: new Date().toISOString() });
    const client = api.client();
    expect((await client.post('/api/auth/login', { email: admin.email, password: PASSWORD })).body).toMatchObject({
      error: 'account_deleted',
    });
    const restore = await client.post('/api/auth/restore', { email: admin.email, password: PASSWORD });
    expect(restore.status).toBe(403);
    expect(restore.body).toMatchObject({ error: 'passkey_required' });
    expect(await emailsTo(admin.email)).toEqual([]);
  }, 60_000);

  it('lets an operator open one password sign-in for an administrator without a passkey (npm run make-admin -- --allow-password-sign-in)', async () => {
    const admin = await makeAccount('admin');
    const env = { ...process.env, TABLE_NAME: tableName(), LOG_LEVEL: 'SILENT' };
    const { stdout } = await execFileAsync(
      process.execPath,
      ['--import', 'tsx', 'infra/ops/make-admin.ts', admin.email, '--allow-password-sign-in'],
      { env },
    );
    expect(stdout).toContain(`${admin.email} may sign in once with the password and the emailed code until`);
    const allowed = await storedAuditEntries<{ action: string; actor_email: string }>('user', admin.id);
    expect(allowed.find((entry) => entry.action === 'user.password_sign_in_allowed')?.actor_email).toMatch(/^operator:/);

    // one sign-in with the password and the code, in which a passkey can be added
    const client = api.client();
    const step = await passwordStep(client, admin.email);
    expect(step.status).toBe(200);
    expect((await codeStep(client, admin.email, step.body.challenge_id)).status).toBe(200);
    expect((await client.get('/api/admin/summary')).status).toBe(200);
    const profile = await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(admin.id), ConsistentRead: true }));
    expect(profile.Item?.password_sign_in_until).toBeUndefined();

    // used up: the next password sign-in is refused again
    expect((await passwordStep(api.client(), admin.email)).status).toBe(403);
  }, 90_000);
});

describe('ADMIN_PASSKEY_REQUIRED off (dev, local)', () => {
  it('lets an administrator sign in with the password and the emailed code', async () => {
    requirePasskeys(false);
    const admin = await makeAccount('admin');
    const client = api.client();
    const step = await passwordStep(client, admin.email);
    expect(step.status).toBe(200);
    expect((await codeStep(client, admin.email, step.body.challenge_id)).status).toBe(200);
    expect((await client.get('/api/admin/summary')).status).toBe(200);
    expect(await refusals(admin.id)).toEqual([]);
  }, 60_000);
});
