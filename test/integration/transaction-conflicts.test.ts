import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../functions/accounts/passwords';
import { db } from '../../functions/lib/db';
import { SESSION_COOKIE, startSession } from '../../functions/lib/session';
import type { UserRecord } from '../../functions/lib/user-record';
import { insertUser } from '../../functions/lib/users';
import { latestEmail, useApi, type ApiClient } from '../helpers/api';
import { SoftAuthenticator } from '../helpers/soft-authenticator';
import { createTestUser, signIn } from '../helpers/users';

/**
 * A transaction DynamoDB cancels because another one held an item at that moment
 * (`TransactionConflict`), or because it was throttled, was refused for contention, not by the
 * product's rules: nothing was written, and the same transaction is tried again
 * (functions/lib/transact-write.ts). Only an item that refused its condition is a domain answer
 * (404, 409, 400). Each route below meets one such cancellation on its write and must still
 * succeed, never answer as if its condition had failed.
 */
const api = useApi();
const PASSWORD = 'violet tangerine orbit';
const ORIGIN = 'http://localhost:3000';
const CONFLICT_STEP = 'test-transaction-conflict';

/** Cancels the next `times` TransactWriteItems calls as AWS does under contention: one item `TransactionConflict`, the rest `None`. */
function conflictNextTransactions(times: number): { met: () => number } {
  let met = 0;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const items = (args.input as { TransactItems?: unknown[] }).TransactItems;
      if (/^TransactWrite(Items)?Command$/.test(context.commandName ?? '') && items && met < times) {
        met += 1;
        throw new TransactionCanceledException({
          message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]',
          $metadata: { httpStatusCode: 400 },
          CancellationReasons: items.map((_, index) => ({ Code: index === 0 ? 'TransactionConflict' : 'None' })),
        });
      }
      return next(args);
    },
    { step: 'initialize', name: CONFLICT_STEP },
  );
  return { met: () => met };
}
afterEach(() => {
  db().middlewareStack.remove(CONFLICT_STEP);
});

async function makeUser(): Promise<UserRecord> {
  return insertUser({
    email: `conflict-${randomUUID().slice(0, 8)}@example.com`,
    first_name: 'Grace',
    last_name: 'Hopper',
    password_hash: await hashPassword(PASSWORD),
    verified: true,
  });
}

async function sessionClient(user: UserRecord): Promise<ApiClient> {
  const client = api.client();
  const { cookie } = await startSession(user, { ip: '203.0.113.9', userAgent: 'vitest' });
  client.setCookie(SESSION_COOKIE, cookie.split(';')[0].slice(SESSION_COOKIE.length + 1));
  return client;
}

async function addPasskey(client: ApiClient): Promise<string> {
  const options = await client.post<{ challenge_id: string; options: PublicKeyCredentialCreationOptionsJSON }>(
    '/api/auth/passkeys/registration/options',
    { current_password: PASSWORD },
  );
  const response = new SoftAuthenticator().register(options.body.options, ORIGIN);
  const added = await client.post<{ id: string }>('/api/auth/passkeys/registration/verify', {
    challenge_id: options.body.challenge_id,
    name: 'Work laptop',
    response,
  });
  expect(added.status).toBe(201);
  return added.body.id;
}

let adminClient: ApiClient;
beforeAll(async () => {
  const admin = await createTestUser({ role: 'admin', email: `conflict-admin-${Date.now()}@example.com` });
  adminClient = api.client();
  await signIn(adminClient, admin);
});

describe('a transaction cancelled by contention is tried again, not answered as refused', () => {
  it('adding a passkey', async () => {
    const client = await sessionClient(await makeUser());
    const options = await client.post<{ challenge_id: string; options: PublicKeyCredentialCreationOptionsJSON }>(
      '/api/auth/passkeys/registration/options',
      { current_password: PASSWORD },
    );
    const conflicts = conflictNextTransactions(1);
    const added = await client.post('/api/auth/passkeys/registration/verify', {
      challenge_id: options.body.challenge_id,
      name: 'Phone',
      response: new SoftAuthenticator().register(options.body.options, ORIGIN),
    });
    expect(conflicts.met()).toBe(1);
    expect(added.status).toBe(201);
    expect((await client.get<{ items: unknown[] }>('/api/auth/passkeys')).body.items).toHaveLength(1);
  });

  it('renaming a passkey', async () => {
    const client = await sessionClient(await makeUser());
    const id = await addPasskey(client);
    const conflicts = conflictNextTransactions(1);
    const renamed = await client.patch(`/api/auth/passkeys/${id}`, { name: 'Desk key' });
    expect(conflicts.met()).toBe(1);
    expect(renamed.status).toBe(200);
    expect((await client.get<{ items: Array<{ name: string }> }>('/api/auth/passkeys')).body.items[0].name).toBe('Desk key');
  });

  it('removing a passkey, by its owner and by an administrator', async () => {
    const user = await makeUser();
    const client = await sessionClient(user);
    const own = await addPasskey(client);
    let conflicts = conflictNextTransactions(1);
    const removed = await client.request('DELETE', `/api/auth/passkeys/${own}`, { current_password: PASSWORD });
    expect(conflicts.met()).toBe(1);
    expect(removed.status).toBe(200);

    const other = await addPasskey(client);
    db().middlewareStack.remove(CONFLICT_STEP);
    conflicts = conflictNextTransactions(1);
    const byAdmin = await adminClient.request('DELETE', `/api/admin/users/${user.id}/passkeys/${other}`);
    expect(conflicts.met()).toBe(1);
    expect(byAdmin.status).toBe(200);
    expect((await client.get<{ items: unknown[] }>('/api/auth/passkeys')).body.items).toEqual([]);
  });

  it('changing the password', async () => {
    const client = await sessionClient(await makeUser());
    const conflicts = conflictNextTransactions(1);
    const changed = await client.post('/api/settings/password', {
      current_password: PASSWORD,
      new_password: 'a brand new passphrase 42',
      confirm_new_password: 'a brand new passphrase 42',
    });
    expect(conflicts.met()).toBe(1);
    expect(changed.status).toBe(200);
  });

  it('resetting the password with an emailed link', async () => {
    const user = await makeUser();
    expect((await api.client().post('/api/auth/password-reset/request', { email: user.email })).status).toBe(200);
    const link = (await latestEmail(user.email, /Reset your password/)).text.match(/token=([\w%-]+)/)![1];
    const conflicts = conflictNextTransactions(1);
    const confirmed = await api.client().post('/api/auth/password-reset/confirm', {
      token: decodeURIComponent(link),
      password: 'another good passphrase 7',
      password2: 'another good passphrase 7',
    });
    expect(conflicts.met()).toBe(1);
    expect(confirmed.status).toBe(200);
  });
});
