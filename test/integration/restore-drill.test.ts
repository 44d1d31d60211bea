import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DeleteCommand, DynamoDBDocumentClient, GetCommand, paginateScan, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../functions/accounts/passwords';
import { credentialHash } from '../../functions/accounts/passkey-records';
import { AUDIT_ACTION } from '../../functions/lib/audit';
import { tableName } from '../../functions/lib/db';
import { SESSION_COOKIE, startSession } from '../../functions/lib/session';
import { AUDIT_REF_KIND, keys, PK, SK } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { insertUser, searchItems } from '../../functions/lib/users';
import { ensureTable } from '../../infra/local/table-setup';
import { latestEmail, useApi, type ApiClient } from '../helpers/api';
import { everyItem } from '../helpers/every-item';
import { hardDeleteToEnd } from '../helpers/hard-delete';
import { createTestUser, signIn } from '../helpers/users';
import { setUserFields } from './program-helpers';

/**
 * A restore drill (docs/runbook.md#restore-the-table-to-a-point-in-time) against DynamoDB Local:
 * the product writes its data through its own code and API; the table is copied as it stands
 * (the point in time: what `restore-table-to-point-in-time` would create); after that point an
 * administrator removes a passkey and changes an address, a learner resets the password (which
 * removes every passkey) and ends a session, an administrator ends all of another's sessions and
 * hard-deletes an account whose hard delete the stream never indexed; then the damage: items of
 * an untouched account and a passkey are deleted. The copy-back runs through the command the
 * runbook names, with an operator's environment (no secret of the functions), once as is and
 * once with `--overwrite`: nothing removed after the point returns, what was lost does.
 */
const api = useApi();
const PASSWORD = 'cobalt lantern harbor';
const NEW_PASSWORD = 'amber orchard meridian';
const DAY_MS = 24 * 3600 * 1000;
const root = join(import.meta.dirname, '..', '..');
const restoredTable = `restored-${randomUUID().slice(0, 8)}`;
const raw = new DynamoDBClient({
  endpoint: process.env.DYNAMODB_ENDPOINT,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
const client = DynamoDBDocumentClient.from(raw);

const get = async ({ pk, sk }: { pk: string; sk: string }) =>
  (await client.send(new GetCommand({ TableName: tableName(), Key: { pk, sk } }))).Item;
const remove = ({ pk, sk }: { pk: string; sk: string }) => client.send(new DeleteCommand({ TableName: tableName(), Key: { pk, sk } }));
const partitionKeys = async (pk: string) =>
  (
    (
      await client.send(
        new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }),
      )
    ).Items ?? []
  ).map((item) => String(item.sk));

/** The table as it stands, into a new one (what a point-in-time restore creates). */
async function copyTable(to: string) {
  await ensureTable(raw, to);
  for await (const page of paginateScan({ client }, { TableName: tableName() }))
    for (let at = 0; at < (page.Items ?? []).length; at += 25)
      await client.send(
        new BatchWriteCommand({ RequestItems: { [to]: page.Items!.slice(at, at + 25).map((Item) => ({ PutRequest: { Item } })) } }),
      );
}

/** `npm run restore-table -- …` as an operator runs it: their shell has AWS credentials, no secret of the functions. */
async function restoreTable(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'restore-table', '--', ...args], {
    cwd: root,
    // DynamoDB Local stands for the operator's AWS account
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT, AWS_REGION: 'us-east-1' },
  });
  return stdout;
}

async function addPasskey(user: UserRecord, name: string): Promise<string> {
  const id = credentialHash(`credential-${name}-${user.id}`);
  await client.send(
    new BatchWriteCommand({
      RequestItems: {
        [tableName()]: [
          {
            PutRequest: {
              Item: { ...keys.passkey(user.id, id), type: 'passkey', id, user_id: user.id, name, created_at: new Date().toISOString() },
            },
          },
          { PutRequest: { Item: { ...keys.passkeyLookup(id), type: 'passkey_lookup', user_id: user.id } } },
        ],
      },
    }),
  );
  return id;
}

async function sessionClient(user: UserRecord): Promise<{ client: ApiClient; sessionId: string }> {
  const learner = api.client();
  const { cookie, sessionId } = await startSession(user);
  learner.setCookie(SESSION_COOKIE, cookie.split(';')[0].slice(SESSION_COOKIE.length + 1));
  return { client: learner, sessionId };
}

const makeUser = async (name: string) =>
  insertUser({
    email: `${name}-${randomUUID().slice(0, 8)}@drill.example`,
    first_name: name,
    last_name: 'Drill',
    password_hash: await hashPassword(PASSWORD),
    verified: true,
  });

let admin: ApiClient;
let alice: UserRecord; // an administrator removes one of her passkeys and changes her address; she ends a session
let bob: UserRecord; // resets his password: both his passkeys go
let carol: UserRecord; // hard-deleted after the point
let dave: UserRecord; // untouched: lost in the damage, must come back
let erin: UserRecord; // an administrator ends all her sessions
const passkeys = {} as Record<'aliceKept' | 'aliceRemoved' | 'bob1' | 'bob2', string>;
const sessions = {} as Record<'aliceKept' | 'aliceEnded' | 'erin', { client: ApiClient; sessionId: string }>;
const aliceNewEmail = `alice-new-${randomUUID().slice(0, 8)}@drill.example`;
let daveBefore: string[];
let restorePoint: Date;

beforeAll(async () => {
  admin = api.client();
  await signIn(admin, await createTestUser({ role: 'admin' }));
  [alice, bob, carol, dave, erin] = await Promise.all(['alice', 'bob', 'carol', 'dave', 'erin'].map(makeUser));
  passkeys.aliceKept = await addPasskey(alice, 'Laptop');
  passkeys.aliceRemoved = await addPasskey(alice, 'Stolen phone');
  passkeys.bob1 = await addPasskey(bob, 'Phone');
  passkeys.bob2 = await addPasskey(bob, 'Tablet');
  [sessions.aliceKept, sessions.aliceEnded, sessions.erin] = await Promise.all([
    sessionClient(alice),
    sessionClient(alice),
    sessionClient(erin),
  ]);
  const daveClient = api.client();
  await signIn(daveClient, dave);
  expect((await daveClient.post('/api/enroll')).status).toBe(200);
  daveBefore = await partitionKeys(keys.user(dave.id).pk);
  // soft-deleted past the retention period: due for its hard delete
  expect((await admin.post(`/api/admin/users/${carol.id}/soft-delete`, { reason: 'asked to be erased' })).status).toBe(200);
  await setUserFields(carol.id, { deleted_at: new Date(Date.now() - 40 * DAY_MS).toISOString() });

  // the point in time
  await copyTable(restoredTable);
  restorePoint = new Date();

  expect((await admin.delete(`/api/admin/users/${alice.id}/passkeys/${passkeys.aliceRemoved}`)).status).toBe(200);
  expect((await admin.patch(`/api/admin/users/${alice.id}`, { email: aliceNewEmail })).status).toBe(200);
  expect(
    (
      await sessions.aliceKept.client.request('DELETE', `/api/auth/sessions/${sessions.aliceEnded.sessionId}`, {
        current_password: PASSWORD,
      })
    ).status,
  ).toBe(200);
  expect((await api.client().post('/api/auth/password-reset/request', { email: bob.email })).status).toBe(200);
  const link = /(http\S+reset-password\?token=\S+)/.exec((await latestEmail(bob.email, /Reset your password/)).text)![1];
  const token = new URL(link).searchParams.get('token');
  expect(
    (await api.client().post('/api/auth/password-reset/confirm', { token, password: NEW_PASSWORD, password2: NEW_PASSWORD })).status,
  ).toBe(200);
  expect((await admin.post(`/api/admin/users/${erin.id}/actions/invalidate-sessions`)).status).toBe(200);
  expect((await hardDeleteToEnd(admin, carol)).counts.profile).toBe(1);
  // the stream never indexed the hard delete: none of its audit references exists
  const references = (await everyItem()).filter(
    (item) =>
      String(item.pk).startsWith(AUDIT_REF_KIND.action) && item.action === AUDIT_ACTION.adminHardDelete && item.entity_id === carol.id,
  );
  expect(references.length).toBe(1);
  for (const item of (await everyItem()).filter((each) => String(each.pk).startsWith(PK.auditRef) && each.sk === references[0].sk))
    await remove({ pk: String(item.pk), sk: String(item.sk) });

  // the damage: an untouched account's items and a passkey are lost
  for (const sk of daveBefore) await remove({ pk: keys.user(dave.id).pk, sk });
  await remove(keys.email(dave.email));
  for (const search of searchItems(dave)) await remove(search);
  await remove(keys.passkey(alice.id, passkeys.aliceKept));
  await remove(keys.passkeyLookup(passkeys.aliceKept));
}, 120_000);

afterAll(async () => {
  await raw.send(new DeleteTableCommand({ TableName: restoredTable }));
  raw.destroy();
});

/** Nothing removed after the restore point is back (checked after each copy-back). */
async function nothingRemovedReturned() {
  // passkeys an administrator or a password reset removed, with their lookups
  for (const [user, id] of [
    [alice, passkeys.aliceRemoved],
    [bob, passkeys.bob1],
    [bob, passkeys.bob2],
  ] as const) {
    expect(await get(keys.passkey(user.id, id))).toBeUndefined();
    expect(await get(keys.passkeyLookup(id))).toBeUndefined();
  }
  // the former address: no guard, no search item, and it signs nobody in
  expect(await get(keys.email(alice.email))).toBeUndefined();
  for (const search of searchItems(alice).filter((item) => item.field === 'email')) expect(await get(search)).toBeUndefined();
  expect((await get(keys.user(alice.id)))?.email).toBe(aliceNewEmail);
  expect((await get(keys.email(aliceNewEmail)))?.user_id).toBe(alice.id);
  expect((await api.client().post('/api/auth/login', { email: alice.email, password: PASSWORD })).status).toBe(401);
  // ended sessions stay ended: the one ended by its owner, and all of those an administrator ended
  // (an ended session is kept, marked ended: the restored one, not ended yet, must not replace it)
  expect((await get(keys.session(alice.id, sessions.aliceEnded.sessionId)))?.ended_at).toEqual(expect.any(String));
  expect((await sessions.aliceEnded.client.get('/api/auth/me')).status).toBe(401);
  expect((await sessions.erin.client.get('/api/auth/me')).status).toBe(401);
  // the erased account: nothing of it
  expect(await partitionKeys(keys.user(carol.id).pk)).toEqual([]);
  expect(await get(keys.email(carol.email))).toBeUndefined();
  for (const search of searchItems(carol)) expect(await get(search)).toBeUndefined();
  expect((await everyItem()).filter((item) => JSON.stringify(item).includes(carol.email))).toEqual([]);
}

describe('a restore drill: table, point in time, changes after it, damage, copy-back', () => {
  it('brings back what was lost and nothing removed after the restore point', async () => {
    const output = await restoreTable('--from', restoredTable, '--to', tableName(), '--restore-point', restorePoint.toISOString());
    expect(output).toMatch(/^done: [1-9]\d* items copied/m);
    await nothingRemovedReturned();
    // what was true at the point and lost since is back
    expect(await partitionKeys(keys.user(dave.id).pk)).toEqual(daveBefore.filter((sk) => !sk.startsWith(SK.session)));
    expect((await get(keys.email(dave.email)))?.user_id).toBe(dave.id);
    for (const search of searchItems(dave)) expect(await get(search)).toBeDefined();
    expect((await get(keys.passkey(alice.id, passkeys.aliceKept)))?.name).toBe('Laptop');
    expect((await get(keys.passkeyLookup(passkeys.aliceKept)))?.user_id).toBe(alice.id);
    expect((await sessions.aliceKept.client.get('/api/auth/me')).status).toBe(200);
  });

  it('brings nothing back with --overwrite either, and keeps the credentials changed after the point', async () => {
    const output = await restoreTable(
      '--from',
      restoredTable,
      '--to',
      tableName(),
      '--restore-point',
      restorePoint.toISOString(),
      '--overwrite',
    );
    expect(output).toMatch(/^done: [1-9]\d* items copied/m);
    await nothingRemovedReturned();
    expect((await api.client().post('/api/auth/login', { email: bob.email, password: PASSWORD })).status).toBe(401);
  });
});
