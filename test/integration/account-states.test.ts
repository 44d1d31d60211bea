import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { credentialHash } from '../../functions/accounts/passkey-records';
import { hashPassword } from '../../functions/accounts/passwords';
import { hardDeleteUser } from '../../functions/admin/hard-delete';
import { revokeCertificate } from '../../functions/admin/certificate-revoke';
import { invalidateSessions, lockUser } from '../../functions/admin/user-status';
import { db, tableName } from '../../functions/lib/db';
import { keys } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { getUserById } from '../../functions/lib/users';
import { program } from '../../functions/program/content';
import { newVerificationCode } from '../../functions/program/certificate';
import { registerLocalWorkers } from '../../infra/local/background-work';
import { runAs } from '../../infra/local/iam/twin';
import { emailsTo, useApi, type ApiClient } from '../helpers/api';
import { holdPurgeMessages } from '../helpers/hard-delete';
import { createTestUser, signIn } from '../helpers/users';
import { setUserFields } from './program-helpers';
import { everyItem } from '../helpers/every-item';

/**
 * Account states as allow-lists (functions/lib/account-states.ts): an account whose purge is
 * under way (`purging`) refuses every change, so nothing puts its search items back or moves its
 * status and the purge's last step (the profile deleted on condition `purging`) still succeeds.
 */
const api = useApi();
const PASSWORD = 'a-lantern-by-the-quiet-canal';
const DAY_MS = 24 * 3600 * 1000;
const content = program();

afterAll(() => registerLocalWorkers());

const raw = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

const searchItemsOf = async (userId: string) => (await everyItem()).filter((item) => item.type === 'usersearch' && item.user_id === userId);

async function signedInAdmin() {
  const admin = await createTestUser({ role: 'admin' });
  const client = api.client();
  await signIn(client, admin);
  return { admin, client, caller: { admin, ip: '203.0.113.7', userAgent: 'AccountStatesTest' } };
}

/** A certificate as issuing writes it: the learner's item and its public copy. */
async function issueCertificate(user: UserRecord): Promise<string> {
  const record = {
    verification_code: newVerificationCode(),
    user_id: user.id,
    program_id: content.id,
    program_title: content.title,
    first_name: user.first_name,
    last_name: user.last_name,
    completed_at: new Date().toISOString(),
    issued_at: new Date().toISOString(),
  };
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...keys.userCertificate(user.id, content.id), ...record } }));
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...keys.certificate(record.verification_code), ...record } }));
  return record.verification_code;
}

/** A passkey's two items as registration writes them (enough for an administrator to remove it). */
async function addPasskeyItems(user: UserRecord): Promise<string> {
  const id = credentialHash(`credential-of-${user.id}`);
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.passkey(user.id, id), type: 'passkey', user_id: user.id, name: 'Phone', created_at: new Date().toISOString() },
    }),
  );
  await db().send(
    new PutCommand({ TableName: tableName(), Item: { ...keys.passkeyLookup(id), type: 'passkey_lookup', user_id: user.id } }),
  );
  return id;
}

/**
 * A learner with everything an administrator can act on (an enrollment, a certificate, a
 * passkey), locked, then soft-deleted past the retention period, whose hard delete has started:
 * the purge's first transaction ran (status `purging`, out of every list, search items and email
 * guard gone), its steps are held in the queue.
 */
async function accountBeingErased(adminClient: ApiClient, caller: Parameters<typeof hardDeleteUser>[2]) {
  const user = await createTestUser({ password_hash: await hashPassword(PASSWORD), first_name: 'Erin' });
  const learner = api.client();
  await signIn(learner, user);
  expect((await learner.post('/api/enroll')).status).toBe(200);
  const certificate = await issueCertificate(user);
  const passkey = await addPasskeyItems(user);
  expect((await adminClient.post(`/api/admin/users/${user.id}/lock`)).status).toBe(200);
  expect((await adminClient.post(`/api/admin/users/${user.id}/soft-delete`, { reason: 'asked to be erased' })).status).toBe(200);
  await setUserFields(user.id, { deleted_at: new Date(Date.now() - 31 * DAY_MS).toISOString() });
  const held = holdPurgeMessages();
  const started = await runAs('admin', () => hardDeleteUser(user.id, user.email, caller, new Date(), { timeLeftMs: () => 0 }));
  expect(started).toMatchObject({ deleted: false, status: 'purging' });
  return { user, certificate, passkey, held };
}

describe('an account being erased', () => {
  it('refuses every administrator action with 409 account_being_erased, writes nothing, and its purge still finishes', async () => {
    const { client: adminClient, caller } = await signedInAdmin();
    const { user, certificate, passkey, held } = await accountBeingErased(adminClient, caller);
    const profile = await raw(keys.user(user.id));
    expect(profile).toMatchObject({ status: 'purging', is_locked: true });
    expect(await searchItemsOf(user.id)).toEqual([]);
    const mailsBefore = (await emailsTo(user.email)).length;

    const actions: Array<[string, () => ReturnType<ApiClient['post']>]> = [
      ['lock', () => adminClient.post(`/api/admin/users/${user.id}/lock`)],
      ['unlock', () => adminClient.post(`/api/admin/users/${user.id}/unlock`)],
      ['soft delete', () => adminClient.post(`/api/admin/users/${user.id}/soft-delete`, { reason: 'again' })],
      ['restore', () => adminClient.post(`/api/admin/users/${user.id}/restore`)],
      ['edit names', () => adminClient.request('PATCH', `/api/admin/users/${user.id}`, { first_name: 'Renamed' })],
      ['change email', () => adminClient.request('PATCH', `/api/admin/users/${user.id}`, { email: `back-${user.email}` })],
      ['password reset', () => adminClient.post(`/api/admin/users/${user.id}/reset-password`)],
      ['invalidate sessions', () => adminClient.post(`/api/admin/users/${user.id}/actions/invalidate-sessions`)],
      ...(['unlock', 'force-complete', 'reopen', 'lock'] as const).map((action): [string, () => ReturnType<ApiClient['post']>] => [
        `module ${action}`,
        () => adminClient.post(`/api/admin/modules/${action}`, { user_id: user.id, module_id: content.modules[1].module_id }),
      ]),
      ['revoke certificate', () => adminClient.post(`/api/admin/users/${user.id}/certificate/revoke`, { reason: 'no' })],
      ['remove passkey', () => adminClient.request('DELETE', `/api/admin/users/${user.id}/passkeys/${passkey}`)],
    ];
    for (const [name, act] of actions) {
      const answer = await act();
      expect({ name, status: answer.status, body: answer.body }).toEqual({ name, status: 409, body: { error: 'account_being_erased' } });
    }

    // Nothing changed: the profile as the purge left it, no search item or email guard back, the
    // certificate not revoked, the passkey still there for the purge to remove, no mail sent.
    expect(await raw(keys.user(user.id))).toEqual(profile);
    expect(await searchItemsOf(user.id)).toEqual([]);
    expect(await raw(keys.email(user.email))).toBeUndefined();
    expect(await raw(keys.email(`back-${user.email}`))).toBeUndefined();
    expect(await raw(keys.certificate(certificate))).not.toHaveProperty('revoked_at');
    expect(await raw(keys.passkey(user.id, passkey))).toBeDefined();
    expect(await emailsTo(user.email)).toHaveLength(mailsBefore);

    // The drawer can still read it, and the hard delete resumes it.
    expect((await adminClient.get(`/api/admin/users/${user.id}`)).body).toMatchObject({ status: 'purging' });
    await held.finish();
    expect(await raw(keys.user(user.id))).toBeUndefined();
    expect(await raw(keys.certificate(certificate))).toBeUndefined();
    expect(await raw(keys.passkeyLookup(passkey))).toBeUndefined();
    expect((await adminClient.get(`/api/admin/users/${user.id}/hard-delete/status`)).body).toMatchObject({ status: 'done' });
  });

  it("answers the person's sign-in, restore and reset request as for an unknown address", async () => {
    const { client: adminClient, caller } = await signedInAdmin();
    const { user, held } = await accountBeingErased(adminClient, caller);
    const browser = api.client();
    const wrong = await browser.post('/api/auth/login', { email: user.email, password: 'not-the-password' });
    expect(wrong).toMatchObject({ status: 401, body: { error: 'invalid_credentials' } });
    expect(await browser.post('/api/auth/login', { email: user.email, password: PASSWORD })).toMatchObject({
      status: 401,
      body: { error: 'invalid_credentials' },
    });
    expect(await browser.post('/api/auth/restore', { email: user.email, password: PASSWORD })).toMatchObject({
      status: 401,
      body: { error: 'invalid_credentials' },
    });
    expect(await browser.post('/api/auth/password-reset/request', { email: user.email })).toMatchObject({
      status: 200,
      body: { ok: true },
    });
    expect((await emailsTo(user.email)).filter((mail) => /reset/i.test(mail.subject))).toEqual([]);
    expect((await raw(keys.user(user.id)))?.status).toBe('purging');
    await held.finish();
  });

  it('answers a right password as a wrong one while the address still leads to the account (a sign-in racing the purge)', async () => {
    // An account its owner deleted within the retention period (so restorable), then marked
    // `purging` with its email guard still in place: the instant between a sign-in's read of the
    // guard and of the account.
    const user = await createTestUser({ password_hash: await hashPassword(PASSWORD) });
    const client = api.client();
    await signIn(client, user);
    expect((await client.post('/api/account/delete', { password: PASSWORD })).status).toBe(200);
    await setUserFields(user.id, { status: 'purging' });
    const browser = api.client();
    for (const path of ['/api/auth/login', '/api/auth/restore']) {
      const answer = await browser.post(path, { email: user.email, password: PASSWORD });
      expect({ path, status: answer.status, body: answer.body, cookies: answer.setCookies }).toEqual({
        path,
        status: 401,
        body: { error: 'invalid_credentials' },
        cookies: [],
      });
    }
    expect((await emailsTo(user.email)).filter((mail) => /code/i.test(mail.subject))).toEqual([]);
    expect((await raw(keys.user(user.id)))?.status).toBe('purging');
  });
});

/**
 * Runs `work` with the purge's start landing just before the app's first `command` (its status
 * written `purging` without the version the purge also moves, so only the status condition can
 * refuse the write).
 */
async function withPurgeStartingBefore<T>(command: string, userId: string, work: () => Promise<T>): Promise<T> {
  const name = 'purgeStartsFirst';
  let fired = false;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      if (!fired && context.commandName === command) {
        fired = true;
        await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: keys.user(userId),
            UpdateExpression: 'SET #status = :purging',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':purging': 'purging' },
          }),
        );
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    return await work();
  } finally {
    db().middlewareStack.remove(name);
  }
}

describe('a change racing the start of a purge', () => {
  it('loses whole: the account write holds the accepted statuses in its condition (lock)', async () => {
    const { caller } = await signedInAdmin();
    const user = await createTestUser();
    const searchBefore = await searchItemsOf(user.id);
    expect(searchBefore.length).toBeGreaterThan(0);
    const refused = withPurgeStartingBefore('TransactWriteItemsCommand', user.id, () => runAs('admin', () => lockUser(user.id, caller)));
    await expect(refused).rejects.toMatchObject({ statusCode: 409, code: 'account_being_erased' });
    expect(await raw(keys.user(user.id))).toMatchObject({ status: 'purging', is_locked: false, session_version: user.session_version });
    expect(await searchItemsOf(user.id)).toEqual(searchBefore);
  });

  it('loses whole: a write on other items holds the account status in its transaction (certificate revoke)', async () => {
    const { caller } = await signedInAdmin();
    const user = await createTestUser();
    const code = await issueCertificate(user);
    const refused = withPurgeStartingBefore('TransactWriteItemsCommand', user.id, () =>
      runAs('admin', () => revokeCertificate(user.id, 'racing', caller)),
    );
    await expect(refused).rejects.toMatchObject({ statusCode: 409, code: 'account_being_erased' });
    expect(await raw(keys.certificate(code))).not.toHaveProperty('revoked_at');
    expect(await raw(keys.userCertificate(user.id, content.id))).not.toHaveProperty('revoked_at');
  });

  it('loses whole: ending every session holds the accepted statuses in its condition', async () => {
    const { caller } = await signedInAdmin();
    const user = await createTestUser();
    const refused = withPurgeStartingBefore('UpdateItemCommand', user.id, () => runAs('admin', () => invalidateSessions(user.id, caller)));
    await expect(refused).rejects.toMatchObject({ statusCode: 409, code: 'account_being_erased' });
    expect((await getUserById(user.id))?.session_version).toBe(user.session_version);
  });
});
