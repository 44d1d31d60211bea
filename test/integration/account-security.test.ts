import { createHash, randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { drainActivityStream } from '../../infra/local/activity-stream';
import { runAs } from '../../infra/local/iam/twin';
import type * as z from 'zod';
import { finishPasskeyLogin, startPasskeyLogin } from '../../functions/accounts/passkey-sign-in';
import { hashPassword } from '../../functions/accounts/passwords';
import { configureRateLimits } from '../../functions/accounts/rate-limit';
import type { Caller } from '../../functions/lib/caller';
import { db, tableName } from '../../functions/lib/db';
import { SESSION_COOKIE, startSession } from '../../functions/lib/session';
import { keys, ttlIn } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { getUserById, insertUser } from '../../functions/lib/users';
import type { AuditEntry, ListPage } from '../../shared/admin-types';
import type { sessionList } from '../../shared/api-schemas/auth';
import type { passkey, passkeyList } from '../../shared/api-schemas/passkeys';
import { codeIn, emailsTo, latestEmail, useApi, type ApiClient } from '../helpers/api';
import { SoftAuthenticator } from '../helpers/soft-authenticator';
import { createTestUser, signIn } from '../helpers/users';
import { setUserFields } from './program-helpers';
import { hardDeleteToEnd } from '../helpers/hard-delete';
import { storedAuditEntries } from '../helpers/audit-entries';

const api = useApi();
const PASSWORD = 'violet tangerine orbit';
const ORIGIN = 'http://localhost:3000';
const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

type Passkey = z.infer<typeof passkey>;
type PasskeyList = z.infer<typeof passkeyList>;
type SessionList = z.infer<typeof sessionList>;
/** `POST /api/auth/passkeys/registration/options`: the library's WebAuthn options, passed through as is. */
interface RegistrationOptions {
  challenge_id: string;
  options: PublicKeyCredentialCreationOptionsJSON;
}
/** `POST /api/auth/passkeys/authentication/options` */
interface AuthenticationOptions {
  challenge_id: string;
  options: PublicKeyCredentialRequestOptionsJSON;
}
/** `GET /api/admin/users/{id}/hard-delete/preview` and the hard delete's answer: items removed, by kind. */
interface HardDeleteCounts {
  counts: Record<string, number>;
}
/** `expect.any` is typed `any`: held as `unknown` so the objects it goes into stay type-checked. */
const anyString: unknown = expect.any(String);

afterEach(() => configureRateLimits());

async function makeUser(overrides: { verified?: boolean } = {}): Promise<UserRecord> {
  return insertUser({
    email: `sec-${randomUUID().slice(0, 8)}@example.com`,
    first_name: 'Grace',
    last_name: 'Hopper',
    password_hash: await hashPassword(PASSWORD),
    verified: overrides.verified ?? true,
  });
}

/** A client with a real session started from the given browser. */
async function sessionClient(user: UserRecord, userAgent = CHROME_WINDOWS): Promise<{ client: ApiClient; sessionId: string }> {
  const client = api.client({ userAgent });
  const { cookie, sessionId } = await startSession(user, { ip: '203.0.113.9', userAgent });
  client.setCookie(SESSION_COOKIE, cookie.split(';')[0].slice(SESSION_COOKIE.length + 1));
  return { client, sessionId };
}

async function passwordLogin(client: ApiClient, email: string) {
  const codes = async () => (await emailsTo(email)).filter((e) => /login code/i.test(e.subject));
  const before = (await codes()).length;
  const step1 = await client.post('/api/auth/login', { email, password: PASSWORD });
  expect(step1.status).toBe(200);
  // This sign-in's own code: the store keeps arrival order (its timestamps are too coarse to sort
  // two sign-ins in the same second).
  await expect.poll(async () => (await codes()).length, { timeout: 10_000, interval: 100 }).toBe(before + 1);
  const code = codeIn((await codes()).at(-1)!);
  const step2 = await client.post('/api/auth/verify-2fa', { email, code, challenge_id: step1.body.challenge_id });
  expect(step2.status).toBe(200);
}

async function addPasskey(client: ApiClient, authenticator = new SoftAuthenticator(), name: string | null = 'Work laptop') {
  const options = await client.post<RegistrationOptions>('/api/auth/passkeys/registration/options', { current_password: PASSWORD });
  expect(options.status).toBe(200);
  const response = authenticator.register(options.body.options, ORIGIN);
  const verified = await client.post<Passkey>('/api/auth/passkeys/registration/verify', {
    challenge_id: options.body.challenge_id,
    ...(name === null ? {} : { name }),
    response,
  });
  expect(verified.status).toBe(201);
  return { authenticator, passkey: verified.body };
}

async function passkeyLogin(client: ApiClient, authenticator: SoftAuthenticator, overrides: { userHandle?: string } = {}) {
  const options = await client.post<AuthenticationOptions>('/api/auth/passkeys/authentication/options', {});
  expect(options.status).toBe(200);
  return client.post('/api/auth/passkeys/authentication/verify', {
    challenge_id: options.body.challenge_id,
    response: authenticator.authenticate(options.body.options, ORIGIN, overrides),
  });
}

/** "Confirm it's you" with the password, as the body of the calls that ask it. */
const BY_PASSWORD = { current_password: PASSWORD };

/** A `confirm` challenge answered by the authenticator: the passkey form of "Confirm it's you". */
async function passkeyProof(client: ApiClient, authenticator: SoftAuthenticator) {
  const options = await client.post<AuthenticationOptions>('/api/auth/passkeys/confirmation/options', {});
  expect(options.status).toBe(200);
  return { passkey: { challenge_id: options.body.challenge_id, response: authenticator.authenticate(options.body.options, ORIGIN) } };
}

const auditActions = async (adminClient: ApiClient, userId: string): Promise<string[]> =>
  (await adminClient.get<ListPage<AuditEntry & { action: string }>>(`/api/admin/users/${userId}/audit-logs`)).body.items.map(
    (entry) => entry.action,
  );

let adminClient: ApiClient;
beforeAll(async () => {
  const admin = await createTestUser({ role: 'admin', email: `sec-admin-${Date.now()}@example.com` });
  adminClient = api.client();
  await signIn(adminClient, admin);
});

describe('GET /api/auth/sessions', () => {
  it("lists the caller's live sessions with device labels; current only for the calling one", async () => {
    const user = await makeUser();
    const laptop = await sessionClient(user, CHROME_WINDOWS);
    const other = await sessionClient(user, FIREFOX_LINUX);
    const response = await laptop.client.get('/api/auth/sessions');
    expect(response.status).toBe(200);
    const items = response.body.items as Array<Record<string, unknown>>;
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({
      id: laptop.sessionId,
      current: true,
      ip: '203.0.113.9',
      user_agent: CHROME_WINDOWS,
      device: 'Chrome on Windows',
    });
    expect(items[1]).toMatchObject({ id: other.sessionId, current: false, device: 'Firefox on Linux' });
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(['created_at', 'current', 'device', 'id', 'ip', 'last_seen_at', 'user_agent']);
      expect(Date.parse(String(item.created_at))).toBeGreaterThan(0);
      expect(Date.parse(String(item.last_seen_at))).toBeGreaterThan(0);
    }
  });

  it('does not list expired, idle or invalidated sessions', async () => {
    const user = await makeUser();
    const { client } = await sessionClient(user);
    const old = new Date(Date.now() - 2 * 3600 * 1000).toISOString();
    const put = (sid: string, extra: Record<string, unknown>) =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...keys.session(user.id, sid),
            type: 'session',
            user_id: user.id,
            created_at: old,
            last_seen_at: old,
            session_version: 0,
            expires_at: ttlIn(3600),
            ...extra,
          },
        }),
      );
    // past its 12 hours though recently seen and still stored (the item outlives the session by days)
    await put('absolute-expired', {
      created_at: new Date(Date.now() - 13 * 3600 * 1000).toISOString(),
      last_seen_at: new Date().toISOString(),
    });
    // unused for 31 minutes: past the 30-minute idle timeout
    await put('idle-expired', { last_seen_at: new Date(Date.now() - 31 * 60 * 1000).toISOString() });
    await put('old-version', { last_seen_at: new Date().toISOString(), session_version: -1 });
    const response = await client.get<SessionList>('/api/auth/sessions');
    expect(response.body.items.map((item: { id: string }) => item.id)).toHaveLength(1);
    expect(response.body.items[0].current).toBe(true);
  });

  it('needs a session', async () => {
    expect((await api.client().get('/api/auth/sessions')).status).toBe(401);
    expect((await api.client().request('DELETE', '/api/auth/sessions/abc', BY_PASSWORD)).status).toBe(401);
    expect((await api.client().post('/api/auth/sessions/revoke-others', BY_PASSWORD)).status).toBe(401);
  });
});

describe('DELETE /api/auth/sessions/{id}', () => {
  it('ends another session of the caller (audited); it stops working at once', async () => {
    const user = await makeUser();
    const mine = await sessionClient(user);
    const other = await sessionClient(user, FIREFOX_LINUX);
    const ended = await mine.client.request('DELETE', `/api/auth/sessions/${other.sessionId}`, BY_PASSWORD);
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ ok: true });
    expect((await other.client.get('/api/auth/me')).status).toBe(401);
    expect((await mine.client.get('/api/auth/me')).status).toBe(200);
    expect(await auditActions(adminClient, user.id)).toContain('auth.session_revoked');
  });

  it('needs "Confirm it\'s you": nothing, a wrong password (audited) or a used challenge ends nothing; a passkey does', async () => {
    const user = await makeUser();
    const mine = await sessionClient(user);
    const other = await sessionClient(user, FIREFOX_LINUX);
    const path = `/api/auth/sessions/${other.sessionId}`;
    expect((await mine.client.request('DELETE', path)).body).toEqual({ error: 'reauthentication_required' });
    expect((await mine.client.request('DELETE', path, {})).status).toBe(403);
    const wrong = await mine.client.request('DELETE', path, { current_password: 'not my password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: 'invalid_current_password' });
    expect((await other.client.get('/api/auth/me')).status).toBe(200);
    const entries = (await adminClient.get(`/api/admin/users/${user.id}/audit-logs`)).body.items as Array<{
      action: string;
      new_values: Record<string, unknown>;
    }>;
    expect(entries.find((entry) => entry.action === 'auth.session_revocation_refused')?.new_values).toEqual({
      reason: 'invalid_current_password',
    });

    const { authenticator } = await addPasskey(mine.client);
    const proof = await passkeyProof(mine.client, authenticator);
    expect((await mine.client.request('DELETE', path, proof)).status).toBe(200);
    expect((await other.client.get('/api/auth/me')).status).toBe(401);
    // the challenge was used: it confirms nothing else
    expect((await mine.client.post('/api/auth/sessions/revoke-others', proof)).body).toEqual({ error: 'invalid_challenge' });
  });

  it("answers 404 for another person's session id, and nothing ends", async () => {
    const user = await makeUser();
    const stranger = await makeUser();
    const mine = await sessionClient(user);
    const theirs = await sessionClient(stranger);
    const response = await mine.client.request('DELETE', `/api/auth/sessions/${theirs.sessionId}`, BY_PASSWORD);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'session_not_found' });
    expect((await theirs.client.get('/api/auth/me')).status).toBe(200);
    expect((await mine.client.get('/api/auth/me')).status).toBe(200);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    const user = await makeUser();
    const { client } = await sessionClient(user);
    expect((await client.request('DELETE', '/api/auth/sessions/no-such-session', BY_PASSWORD)).body).toEqual({
      error: 'session_not_found',
    });
    expect((await client.request('DELETE', `/api/auth/sessions/${'x'.repeat(100)}`, BY_PASSWORD)).status).toBe(404);
    expect((await client.request('DELETE', '/api/auth/sessions/a%20b', BY_PASSWORD)).status).toBe(404);
  });

  it('ending the current session signs this browser out (cookie cleared)', async () => {
    const user = await makeUser();
    const { client, sessionId } = await sessionClient(user);
    const response = await client.request('DELETE', `/api/auth/sessions/${sessionId}`, BY_PASSWORD);
    expect(response.status).toBe(200);
    expect(response.setCookies.some((c) => /^__Host-session=;.*Max-Age=0/i.test(c))).toBe(true);
    expect((await client.get('/api/auth/me')).status).toBe(401);
  });
});

describe('POST /api/auth/sessions/revoke-others', () => {
  it('ends every session but the current one (audited with the count)', async () => {
    const user = await makeUser();
    const mine = await sessionClient(user);
    const others = await Promise.all([sessionClient(user, FIREFOX_LINUX), sessionClient(user), sessionClient(user)]);
    const stranger = await sessionClient(await makeUser());
    expect((await mine.client.post('/api/auth/sessions/revoke-others', {})).body).toEqual({ error: 'reauthentication_required' });
    expect((await mine.client.post('/api/auth/sessions/revoke-others', { current_password: 'nope' })).status).toBe(400);
    for (const other of others) expect((await other.client.get('/api/auth/me')).status).toBe(200);

    const cookieBefore = mine.client.cookie(SESSION_COOKIE);
    const response = await mine.client.post('/api/auth/sessions/revoke-others', BY_PASSWORD);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true, ended: 3 });
    for (const other of others) expect((await other.client.get('/api/auth/me')).status).toBe(401);
    // one bump of the account's session version: the other items stay until their TTL, the current
    // session carries on with the fresh cookie (the one it had before is of the old version)
    expect((await getUserById(user.id))?.session_version).toBe((user.session_version ?? 0) + 1);
    expect(mine.client.cookie(SESSION_COOKIE)).not.toBe(cookieBefore);
    expect((await mine.client.get('/api/auth/me')).status).toBe(200);
    const stale = api.client();
    stale.setCookie(SESSION_COOKIE, cookieBefore!);
    expect((await stale.get('/api/auth/me')).status).toBe(401);
    expect((await stranger.client.get('/api/auth/me')).status).toBe(200);
    expect((await mine.client.get('/api/auth/sessions')).body.items).toHaveLength(1);
    const entries = (await adminClient.get(`/api/admin/users/${user.id}/audit-logs`)).body.items as Array<{
      action: string;
      new_values: Record<string, unknown>;
    }>;
    expect(entries.find((entry) => entry.action === 'auth.sessions_revoked_others')?.new_values).toEqual({ sessions_ended: 3 });
  });

  it('keeps listing the current session after a password change ended the others', async () => {
    const user = await makeUser();
    const mine = await sessionClient(user);
    const other = await sessionClient(user, FIREFOX_LINUX);
    const changed = await mine.client.post('/api/settings/password', {
      current_password: PASSWORD,
      new_password: 'a brand new passphrase 42',
      confirm_new_password: 'a brand new passphrase 42',
    });
    expect(changed.status).toBe(200);
    const items = (await mine.client.get('/api/auth/sessions')).body.items as Array<{ id: string; current: boolean }>;
    expect(items.map((item) => item.id)).toEqual([mine.sessionId]);
    expect((await other.client.get('/api/auth/me')).status).toBe(401);
    // and the password-changed notice went out
    const notice = await latestEmail(user.email, /password was changed/);
    expect(notice.text).toContain('Device: Chrome on Windows');
    expect(notice.text).toContain("Wasn't you? Reset your password:\nhttp://localhost:3000/forgot-password");
  });
});

describe('"Confirm it\'s you" and the password change: a budget each', () => {
  const NEW_PASSWORD = 'a fresh harbour of violet kites';
  const change = (client: ApiClient, current: string) =>
    client.post('/api/settings/password', { current_password: current, new_password: NEW_PASSWORD, confirm_new_password: NEW_PASSWORD });
  const signOutOthers = (client: ApiClient, current: string) =>
    client.post('/api/auth/sessions/revoke-others', { current_password: current });
  const small = { limit: 2, windowSeconds: 3600 };

  it("a thief who spends the account's \"Confirm it's you\" tries leaves the owner's password change working", async () => {
    configureRateLimits({ reauthenticationsPerUser: small, passwordChangesPerUser: small });
    const user = await makeUser();
    const thief = await sessionClient(user, FIREFOX_LINUX);
    const owner = await sessionClient(user);
    const guesses = [];
    for (let attempt = 0; attempt < 3; attempt++) guesses.push((await signOutOthers(thief.client, `guess-${attempt}`)).status);
    expect(guesses).toEqual([400, 400, 429]);
    expect((await signOutOthers(owner.client, PASSWORD)).status).toBe(429); // that budget is spent for everyone
    const changed = await change(owner.client, PASSWORD);
    expect(changed).toMatchObject({ status: 200, body: { ok: true } });
    expect((await thief.client.get('/api/auth/me')).status).toBe(401); // the change ended the thief's session
  });

  it('a spent password-change budget leaves "Sign out everywhere else" working', async () => {
    configureRateLimits({ reauthenticationsPerUser: small, passwordChangesPerUser: small });
    const user = await makeUser();
    const thief = await sessionClient(user, FIREFOX_LINUX);
    const owner = await sessionClient(user);
    const guesses = [];
    for (let attempt = 0; attempt < 3; attempt++) guesses.push((await change(thief.client, `guess-${attempt}`)).status);
    expect(guesses).toEqual([400, 400, 429]);
    expect(await signOutOthers(owner.client, PASSWORD)).toMatchObject({ status: 200, body: { ok: true, ended: 1 } });
    expect((await thief.client.get('/api/auth/me')).status).toBe(401);
  });
});

describe('passkey registration', () => {
  it('adds, lists, renames and removes a passkey, with audit entries and notices', async () => {
    const user = await makeUser();
    const { client } = await sessionClient(user);
    const { passkey } = await addPasskey(client, new SoftAuthenticator(), '  Work laptop  ');
    expect(passkey).toMatchObject({ name: 'Work laptop', last_used_at: null, backed_up: false });
    expect(passkey.id).toMatch(/^[\w-]{43}$/);

    const stored = await db().send(new GetCommand({ TableName: tableName(), Key: keys.passkey(user.id, passkey.id) }));
    expect(stored.Item).toMatchObject({ counter: 0, backed_up: false, device_type: 'singleDevice', transports: ['internal'] });
    expect(String(stored.Item?.public_key).length).toBeGreaterThan(40);
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.passkeyLookup(passkey.id) }))).Item).toMatchObject({
      user_id: user.id,
    });

    const list = await client.get<PasskeyList>('/api/auth/passkeys');
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([{ id: passkey.id, name: 'Work laptop', created_at: anyString, last_used_at: null, backed_up: false }]);
    expect((await latestEmail(user.email, /passkey was added/)).text).toContain('named "Work laptop"');

    const renamed = await client.patch(`/api/auth/passkeys/${passkey.id}`, { name: 'Desk key' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Desk key');
    expect((await client.get<PasskeyList>('/api/auth/passkeys')).body.items[0].name).toBe('Desk key');

    expect((await adminClient.get(`/api/admin/users/${user.id}`)).body.passkey_count).toBe(1);

    expect((await client.request('DELETE', `/api/auth/passkeys/${passkey.id}`)).body).toEqual({ error: 'reauthentication_required' });
    const wrong = await client.request('DELETE', `/api/auth/passkeys/${passkey.id}`, { current_password: 'not my password' });
    expect(wrong.body).toEqual({ error: 'invalid_current_password' });
    expect((await client.get<PasskeyList>('/api/auth/passkeys')).body.items).toHaveLength(1);
    const removed = await client.request('DELETE', `/api/auth/passkeys/${passkey.id}`, BY_PASSWORD);
    expect(removed.status).toBe(200);
    expect((await client.get('/api/auth/passkeys')).body.items).toEqual([]);
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.passkeyLookup(passkey.id) }))).Item).toBeUndefined();
    expect((await latestEmail(user.email, /passkey was removed/)).text).toContain('named "Desk key"');
    expect((await adminClient.get(`/api/admin/users/${user.id}`)).body.passkey_count).toBe(0);
    expect(await auditActions(adminClient, user.id)).toEqual(
      expect.arrayContaining(['auth.passkey_added', 'auth.passkey_renamed', 'auth.passkey_removal_refused', 'auth.passkey_removed']),
    );
  });

  it('needs the password or an existing passkey, even right after signing in; a wrong password is audited', async () => {
    const user = await makeUser();
    // a session that has just signed in is not enough
    const { client: fresh } = await sessionClient(user);
    const refused = await fresh.post('/api/auth/passkeys/registration/options', {});
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'reauthentication_required' });
    const wrong = await fresh.post('/api/auth/passkeys/registration/options', { current_password: 'not my password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: 'invalid_current_password' });
    const refusals = (await adminClient.get(`/api/admin/users/${user.id}/audit-logs`)).body.items as Array<{
      action: string;
      new_values: Record<string, unknown>;
    }>;
    expect(refusals.find((entry) => entry.action === 'auth.passkey_registration_refused')?.new_values).toEqual({
      reason: 'invalid_current_password',
    });
    const right = await fresh.post<RegistrationOptions>('/api/auth/passkeys/registration/options', { current_password: PASSWORD });
    expect(right.status).toBe(200);
    expect(right.body.options).toMatchObject({
      rp: { id: 'localhost' },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      attestation: 'none',
    });
    expect(Buffer.from(right.body.options.user.id, 'base64url').toString()).toBe(user.id);
  });

  it("confirms with one of the account's own passkeys (once per challenge), not another account's", async () => {
    const user = await makeUser();
    const { client } = await sessionClient(user);
    expect((await client.post('/api/auth/passkeys/confirmation/options', {})).body).toEqual({ error: 'passkey_not_found' });
    const { authenticator, passkey } = await addPasskey(client);
    const confirm = async (who: SoftAuthenticator) => {
      const options = await client.post<AuthenticationOptions>('/api/auth/passkeys/confirmation/options', {});
      expect(options.body.options.allowCredentials).toEqual([expect.objectContaining({ id: authenticator.id })]);
      return { challenge_id: options.body.challenge_id, response: who.authenticate(options.body.options, ORIGIN) };
    };
    const proof = await confirm(authenticator);
    const confirmed = await client.post<RegistrationOptions>('/api/auth/passkeys/registration/options', { passkey: proof });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.options.excludeCredentials).toEqual([expect.objectContaining({ id: authenticator.id })]);
    // its use is recorded as at sign-in (the counter moves forward)
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.passkey(user.id, passkey.id) }))).Item?.counter).toBe(1);
    expect((await client.post('/api/auth/passkeys/registration/options', { passkey: proof })).body).toEqual({ error: 'invalid_challenge' });

    // a passkey of another account, or a confirmation challenge of another account, does not confirm
    const stranger = await sessionClient(await makeUser());
    const { authenticator: theirs } = await addPasskey(stranger.client);
    const foreign = await client.post('/api/auth/passkeys/registration/options', { passkey: await confirm(theirs) });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({ error: 'passkey_verification_failed' });
    expect((await stranger.client.post('/api/auth/passkeys/registration/options', { passkey: await confirm(authenticator) })).body).toEqual(
      { error: 'invalid_challenge' },
    );
    const entries = (await adminClient.get(`/api/admin/users/${user.id}/audit-logs`)).body.items as Array<{
      action: string;
      new_values: Record<string, unknown>;
    }>;
    expect(entries.find((entry) => entry.action === 'auth.passkey_registration_refused')?.new_values).toEqual({
      reason: 'passkey_verification_failed',
    });
  });

  it('names a passkey left unnamed after its provider, else after the browser it was added from', async () => {
    const user = await makeUser();
    const { client } = await sessionClient(user, CHROME_WINDOWS);
    expect((await addPasskey(client, new SoftAuthenticator(), null)).passkey.name).toBe('Chrome on Windows');
    const icloud = new SoftAuthenticator({ aaguid: 'fbfc3007-154e-4ecc-8c0b-6e020557d7bd' });
    expect((await addPasskey(client, icloud, null)).passkey.name).toBe('iCloud Keychain');
    expect((await latestEmail(user.email, /passkey was added/)).text).toContain('named "iCloud Keychain"');
  });

  it('uses a challenge once, only for its own account, and refuses a bad answer', async () => {
    const user = await makeUser();
    const { client } = await sessionClient(user);
    const authenticator = new SoftAuthenticator();
    const options = await client.post<RegistrationOptions>('/api/auth/passkeys/registration/options', { current_password: PASSWORD });
    const response = authenticator.register(options.body.options, ORIGIN);

    // someone else's session cannot use this challenge (and it is then gone)
    const other = await sessionClient(await makeUser());
    const foreign = await other.client.post('/api/auth/passkeys/registration/verify', {
      challenge_id: options.body.challenge_id,
      name: 'Mine',
      response,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({ error: 'invalid_challenge' });

    const second = await client.post<RegistrationOptions>('/api/auth/passkeys/registration/options', { current_password: PASSWORD });
    const again = authenticator.register(second.body.options, ORIGIN);
    const ok = await client.post('/api/auth/passkeys/registration/verify', {
      challenge_id: second.body.challenge_id,
      name: 'Phone',
      response: again,
    });
    expect(ok.status).toBe(201);
    const replay = await client.post('/api/auth/passkeys/registration/verify', {
      challenge_id: second.body.challenge_id,
      name: 'Phone',
      response: again,
    });
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ error: 'invalid_challenge' });

    const third = await client.post<RegistrationOptions>('/api/auth/passkeys/registration/options', { current_password: PASSWORD });
    const wrongOrigin = new SoftAuthenticator().register(third.body.options, 'https://evil.example');
    const bad = await client.post('/api/auth/passkeys/registration/verify', {
      challenge_id: third.body.challenge_id,
      name: 'Evil',
      response: wrongOrigin,
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'passkey_verification_failed' });

    const fourth = await client.post<RegistrationOptions>('/api/auth/passkeys/registration/options', { current_password: PASSWORD });
    const noUv = new SoftAuthenticator({ userVerified: false }).register(fourth.body.options, ORIGIN);
    expect(
      (
        await client.post('/api/auth/passkeys/registration/verify', {
          challenge_id: fourth.body.challenge_id,
          name: 'No UV',
          response: noUv,
        })
      ).body,
    ).toEqual({ error: 'passkey_verification_failed' });

    expect(
      (await client.post('/api/auth/passkeys/registration/verify', { challenge_id: 'short', name: 'x', response: again })).body,
    ).toEqual({ error: 'invalid_challenge' });
    expect((await client.get('/api/auth/passkeys')).body.items).toHaveLength(1);
  });

  it('validates names and answers 404 for passkeys of other accounts (nothing changes)', async () => {
    const user = await makeUser();
    const { client } = await sessionClient(user);
    const options = await client.post<RegistrationOptions>('/api/auth/passkeys/registration/options', { current_password: PASSWORD });
    const noName = await client.post('/api/auth/passkeys/registration/verify', {
      challenge_id: options.body.challenge_id,
      name: '   ',
      response: new SoftAuthenticator().register(options.body.options, ORIGIN),
    });
    expect(noName.status).toBe(400);
    expect(noName.body).toMatchObject({ error: 'invalid_request', fields: ['name'] });
    const { passkey } = await addPasskey(client);
    expect((await client.patch(`/api/auth/passkeys/${passkey.id}`, { name: 'x'.repeat(65) })).body).toMatchObject({
      error: 'invalid_request',
    });
    for (const name of ['Laptop\nReset your password at evil.example', 'Tab\there', 'Key \u202Egnp.exe'])
      expect((await client.patch(`/api/auth/passkeys/${passkey.id}`, { name })).body).toMatchObject({ error: 'invalid_request' });

    const stranger = await sessionClient(await makeUser());
    const rename = await stranger.client.patch(`/api/auth/passkeys/${passkey.id}`, { name: 'Stolen' });
    expect(rename.status).toBe(404);
    expect(rename.body).toEqual({ error: 'passkey_not_found' });
    const remove = await stranger.client.request('DELETE', `/api/auth/passkeys/${passkey.id}`, BY_PASSWORD);
    expect(remove.status).toBe(404);
    expect((await client.get('/api/auth/passkeys')).body.items).toEqual([expect.objectContaining({ id: passkey.id, name: 'Work laptop' })]);
    expect((await client.request('DELETE', '/api/auth/passkeys/not-an-id', BY_PASSWORD)).status).toBe(404);
  });

  it('refuses a second registration of the same credential', async () => {
    const user = await makeUser();
    const { client } = await sessionClient(user);
    const { authenticator } = await addPasskey(client);
    const options = await client.post<RegistrationOptions>('/api/auth/passkeys/registration/options', { current_password: PASSWORD });
    expect(options.body.options.excludeCredentials).toEqual([expect.objectContaining({ id: authenticator.id })]);
    const duplicate = await client.post('/api/auth/passkeys/registration/verify', {
      challenge_id: options.body.challenge_id,
      name: 'Again',
      response: authenticator.register(options.body.options, ORIGIN),
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({ error: 'passkey_exists' });
  });
});

describe('passkey sign-in', () => {
  it('signs in with a discoverable passkey instead of password + code; counter and last use stored', async () => {
    const user = await makeUser();
    const { client } = await sessionClient(user);
    const { authenticator, passkey } = await addPasskey(client);

    const browser = api.client({ userAgent: FIREFOX_LINUX });
    const signedIn = await passkeyLogin(browser, authenticator);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ ok: true, user: { id: user.id, email: user.email } });
    expect(signedIn.setCookies.some((c) => c.startsWith('__Host-session='))).toBe(true);
    // the browser is remembered for the new-sign-in notice, as after a password sign-in
    expect(browser.cookie('__Host-browser')).toMatch(/^[\w-]{16,64}$/);
    expect((await browser.get('/api/auth/me')).body.email).toBe(user.email);
    expect((await browser.get<SessionList>('/api/auth/sessions')).body.items.find((s: { current: boolean }) => s.current)?.device).toBe(
      'Firefox on Linux',
    );

    const stored = await db().send(new GetCommand({ TableName: tableName(), Key: keys.passkey(user.id, passkey.id) }));
    expect(stored.Item?.counter).toBe(1);
    expect(stored.Item?.last_used_at).toEqual(expect.any(String));
    expect((await client.get<PasskeyList>('/api/auth/passkeys')).body.items[0].last_used_at).toEqual(expect.any(String));
    await drainActivityStream(); // the sign-in's entry is written from its session item
    const entries = (await adminClient.get(`/api/admin/users/${user.id}/audit-logs`)).body.items as Array<{
      action: string;
      new_values: Record<string, unknown>;
    }>;
    expect(entries.find((entry) => entry.action === 'auth.login')?.new_values).toMatchObject({ method: 'passkey' });
  });

  it('uses a sign-in challenge once', async () => {
    const user = await makeUser();
    const { authenticator } = await addPasskey((await sessionClient(user)).client);
    const browser = api.client();
    const options = await browser.post<AuthenticationOptions>('/api/auth/passkeys/authentication/options', {});
    expect(options.body.options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(options.body.options.allowCredentials ?? []).toEqual([]);
    const answer = authenticator.authenticate(options.body.options, ORIGIN);
    expect(
      (await browser.post('/api/auth/passkeys/authentication/verify', { challenge_id: options.body.challenge_id, response: answer }))
        .status,
    ).toBe(200);
    const replay = await api
      .client()
      .post('/api/auth/passkeys/authentication/verify', { challenge_id: options.body.challenge_id, response: answer });
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ error: 'invalid_challenge' });
  });

  it('refuses an unknown credential, a wrong user handle, a cloned counter and a missing user verification', async () => {
    const user = await makeUser();
    const { client } = await sessionClient(user);
    const { authenticator } = await addPasskey(client);
    const unknown = await passkeyLogin(api.client(), new SoftAuthenticator());
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ error: 'invalid_credentials' });
    const otherHandle = Buffer.from((await makeUser()).id).toString('base64url');
    expect((await passkeyLogin(api.client(), authenticator, { userHandle: otherHandle })).status).toBe(401);

    expect((await passkeyLogin(api.client(), authenticator)).status).toBe(200);
    authenticator.counter = 0; // a clone that replays an old counter value
    expect((await passkeyLogin(api.client(), authenticator)).body).toEqual({ error: 'invalid_credentials' });

    // registered with user verification, then answers without it
    authenticator.counter = 10;
    authenticator.userVerified = false;
    expect((await passkeyLogin(api.client(), authenticator)).body).toEqual({ error: 'invalid_credentials' });
    authenticator.userVerified = true;
    expect((await passkeyLogin(api.client(), authenticator)).status).toBe(200);
  });

  it('refuses locked, deleted, purging and unverified accounts the same way as a password sign-in', async () => {
    const user = await makeUser();
    const { client } = await sessionClient(user);
    const { authenticator } = await addPasskey(client);

    await setUserFields(user.id, { is_locked: true, status: 'locked' });
    const locked = await passkeyLogin(api.client(), authenticator);
    expect(locked.status).toBe(403);
    expect(locked.body).toEqual({ error: 'account_locked' });

    await setUserFields(user.id, { is_locked: false, status: 'active', verified: false });
    const unverified = await passkeyLogin(api.client(), authenticator);
    expect(unverified.status).toBe(403);
    expect(unverified.body).toMatchObject({ error: 'email_not_verified' });

    await setUserFields(user.id, { verified: true, status: 'deleted' });
    const deleted = await passkeyLogin(api.client(), authenticator);
    expect(deleted.status).toBe(401);
    expect(deleted.body).toEqual({ error: 'invalid_credentials' });

    await setUserFields(user.id, { status: 'purging' });
    const purging = await passkeyLogin(api.client(), authenticator);
    expect(purging.status).toBe(401);
    expect(purging.body).toEqual({ error: 'invalid_credentials' });
    expect(locked.setCookies.concat(unverified.setCookies, deleted.setCookies).some((c) => c.startsWith('__Host-session='))).toBe(false);
  });

  it('counts failed passkey sign-ins per /64 in their own pool, reserved before the check; throttling audited once', async () => {
    configureRateLimits({ passkeyFailuresPerIp: { limit: 2, windowSeconds: 3600 } });
    const user = await makeUser();
    const { authenticator } = await addPasskey((await sessionClient(user)).client);
    const group = () => parseInt(randomUUID().slice(0, 4), 16).toString(16);
    const block = `2001:db8:${group()}:${group()}`;
    const at = (host: string): Caller => ({ ip: `${block}::${host}`, userAgent: 'passkey-limit-test' });
    // as the passkeys function runs them: a refused reservation's audit entry is held to its role
    const attempt = (who: SoftAuthenticator, caller: Caller) =>
      runAs('passkeys', async () => {
        const { challenge_id, options } = await startPasskeyLogin(caller);
        return finishPasskeyLogin({ challenge_id, response: who.authenticate(options, ORIGIN) }, caller);
      });
    const outcome = (promise: Promise<unknown>) =>
      promise.then(
        () => 'ok',
        (error: { code?: string }) => error.code ?? 'error',
      );
    // a verified passkey gives its reservation back
    for (let i = 0; i < 3; i++) expect(await outcome(attempt(authenticator, at('1')))).toBe('ok');
    // parallel refused attempts from many addresses of one /64: no more than the pool holds
    const stranger = new SoftAuthenticator();
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) => outcome(attempt(stranger, at(`a${i}`)))));
    expect(results.filter((r) => r === 'invalid_credentials')).toHaveLength(2);
    expect(results.filter((r) => r === 'throttled')).toHaveLength(2);
    expect(await outcome(attempt(authenticator, at('b')))).toBe('throttled');
    expect(await outcome(attempt(authenticator, { ...at('1'), ip: '2001:db8:ffff:1::1' }))).toBe('ok');

    const addressInBlock: unknown = expect.stringMatching(new RegExp(`^${block}::`));
    const throttledEntries = (await storedAuditEntries('user', 'unknown')).filter(
      (entry) => (entry.new_values as { address_block?: string } | undefined)?.address_block === `${block}::/64`,
    );
    expect(throttledEntries).toEqual([
      expect.objectContaining({
        action: 'auth.login_throttled',
        new_values: { method: 'passkey', reason: 'ip', address_block: `${block}::/64` },
        ip: addressInBlock,
        user_agent: 'passkey-limit-test',
      }),
    ]);
  });

  it("an admin's lock disables passkey sign-in; unlock brings it back", async () => {
    const user = await makeUser();
    const { authenticator } = await addPasskey((await sessionClient(user)).client);
    expect((await adminClient.post(`/api/admin/users/${user.id}/lock`, {})).status).toBe(200);
    const locked = await passkeyLogin(api.client(), authenticator);
    expect(locked.status).toBe(403);
    expect(locked.body).toEqual({ error: 'account_locked' });
    expect(locked.setCookies.some((c) => c.startsWith('__Host-session='))).toBe(false);
    // the refusal is audited once an hour, however often the passkey is tried
    expect((await passkeyLogin(api.client(), authenticator)).status).toBe(403);
    expect((await auditActions(adminClient, user.id)).filter((action) => action === 'auth.login_refused')).toHaveLength(1);
    expect((await adminClient.post(`/api/admin/users/${user.id}/unlock`, {})).status).toBe(200);
    expect((await passkeyLogin(api.client(), authenticator)).status).toBe(200);
  });

  it("an admin's Invalidate tokens ends passkey sessions too", async () => {
    const user = await makeUser();
    const { authenticator } = await addPasskey((await sessionClient(user)).client);
    const browser = api.client();
    expect((await passkeyLogin(browser, authenticator)).status).toBe(200);
    expect((await adminClient.post(`/api/admin/users/${user.id}/actions/invalidate-sessions`, {})).status).toBe(200);
    expect((await browser.get('/api/auth/me')).status).toBe(401);
  });

  it('hard delete removes the credentials and their lookup items', async () => {
    const user = await makeUser();
    const { passkey } = await addPasskey((await sessionClient(user)).client);
    expect((await adminClient.post(`/api/admin/users/${user.id}/soft-delete`, {})).status).toBe(200);
    await setUserFields(user.id, { deleted_at: new Date(Date.now() - 31 * 24 * 3600 * 1000).toISOString() });
    const preview = await adminClient.get<HardDeleteCounts>(`/api/admin/users/${user.id}/hard-delete/preview`);
    expect(preview.body.counts.passkeys).toBe(1);
    const done = await hardDeleteToEnd(adminClient, user);
    expect([200, 202]).toContain(done.status);
    expect(done.counts.passkeys).toBe(1);
    const partition = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `USER#${user.id}` },
      }),
    );
    expect(partition.Items).toEqual([]);
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.passkeyLookup(passkey.id) }))).Item).toBeUndefined();
  });
});

describe("admin: a user's passkeys", () => {
  it('lists and removes a passkey of the user (audited, the owner notified); it no longer signs in', async () => {
    const user = await makeUser();
    const { client } = await sessionClient(user);
    const { authenticator, passkey } = await addPasskey(client, new SoftAuthenticator(), 'Unknown key');
    await addPasskey(client, new SoftAuthenticator(), 'Own key');

    const list = await adminClient.get<PasskeyList>(`/api/admin/users/${user.id}/passkeys`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((item) => item.name)).toEqual(['Unknown key', 'Own key']);
    expect(list.body.items[0]).toEqual({
      id: passkey.id,
      name: 'Unknown key',
      created_at: anyString,
      last_used_at: null,
      backed_up: false,
    });

    const removed = await adminClient.delete(`/api/admin/users/${user.id}/passkeys/${passkey.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ ok: true });
    expect((await client.get<PasskeyList>('/api/auth/passkeys')).body.items.map((item) => item.name)).toEqual(['Own key']);
    expect((await passkeyLogin(api.client(), authenticator)).body).toEqual({ error: 'invalid_credentials' });
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.passkeyLookup(passkey.id) }))).Item).toBeUndefined();
    expect((await latestEmail(user.email, /passkey was removed/)).text).toContain('named "Unknown key"');
    const entries = (
      await adminClient.get<ListPage<AuditEntry & { action: string; old_values: unknown }>>(`/api/admin/users/${user.id}/audit-logs`)
    ).body.items;
    const entry = entries.find((item) => item.action === 'admin.passkey_removed');
    expect(entry?.old_values).toEqual({ passkey: passkey.id.slice(0, 8), name: 'Unknown key' });
    expect(entry?.actor_email).toMatch(/^sec-admin-/);

    // gone, malformed, another user's, or an unknown user: 404 and nothing changes
    expect((await adminClient.delete(`/api/admin/users/${user.id}/passkeys/${passkey.id}`)).body).toEqual({ error: 'passkey_not_found' });
    expect((await adminClient.delete(`/api/admin/users/${user.id}/passkeys/nope`)).status).toBe(404);
    const other = await makeUser();
    const own = list.body.items[1].id;
    expect((await adminClient.delete(`/api/admin/users/${other.id}/passkeys/${own}`)).body).toEqual({ error: 'passkey_not_found' });
    expect((await adminClient.get(`/api/admin/users/${randomUUID()}/passkeys`)).status).toBe(404);
    expect((await client.get<PasskeyList>('/api/auth/passkeys')).body.items).toHaveLength(1);
    // learners cannot use these routes
    expect((await client.get(`/api/admin/users/${user.id}/passkeys`)).status).toBe(403);
  });
});

describe('security notices', () => {
  it('a sign-in from a browser the account has not used before sends a notice; a known one does not', async () => {
    const user = await makeUser();
    const first = api.client({ userAgent: CHROME_WINDOWS });
    await passwordLogin(first, user.email); // the first browser: nothing to compare with
    expect((await emailsTo(user.email)).filter((e) => /New sign-in/.test(e.subject))).toHaveLength(0);
    expect(first.cookie('__Host-browser')).toMatch(/^[\w-]{16,64}$/);

    await passwordLogin(first, user.email); // same browser again
    expect((await emailsTo(user.email)).filter((e) => /New sign-in/.test(e.subject))).toHaveLength(0);

    const second = api.client({ userAgent: FIREFOX_LINUX });
    await passwordLogin(second, user.email);
    const notice = await latestEmail(user.email, /New sign-in/);
    expect(notice.text).toContain('Device: Firefox on Linux');
    expect(notice.text).toMatch(/Location \(IP address\): \S+/);
    expect(notice.text).toMatch(/Time: \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(notice.html).toContain('Reset your password</a>');
  });

  it('an account that kept its browsers as items still knows them: the next sign-in moves them onto the account', async () => {
    const user = await makeUser();
    const known = api.client({ userAgent: CHROME_WINDOWS });
    await passwordLogin(known, user.email);
    // the account as its older sign-ins left it: no map, one item per browser
    const browserId = known.cookie('__Host-browser')!;
    const hash = createHash('sha256').update(browserId).digest('base64url');
    await db().send(new UpdateCommand({ TableName: tableName(), Key: keys.user(user.id), UpdateExpression: 'REMOVE known_browsers' }));
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.knownBrowser(user.id, hash), type: 'known_browser', user_id: user.id, expires_at: ttlIn(3600) },
      }),
    );

    const notices = async () => (await emailsTo(user.email)).filter((e) => /New sign-in/.test(e.subject));
    await passwordLogin(api.client({ userAgent: FIREFOX_LINUX }), user.email);
    expect(await notices()).toHaveLength(1);
    await passwordLogin(known, user.email);
    expect(await notices()).toHaveLength(1);
    expect(Object.keys((await getUserById(user.id))?.known_browsers ?? {})).toContain(hash.slice(0, 16));
  });

  it('a password reset removes every passkey (the link says so) and sends a notice', async () => {
    const user = await makeUser();
    const { client } = await sessionClient(user);
    const { authenticator } = await addPasskey(client);
    await addPasskey(client, new SoftAuthenticator(), 'Phone');
    expect((await api.client().post('/api/auth/password-reset/request', { email: user.email })).status).toBe(200);
    const resetMail = await latestEmail(user.email, /Reset your password/);
    expect(resetMail.text).toContain('Choosing a new password also removes every passkey of your account.');
    const link = resetMail.text.match(/token=([\w%-]+)/)![1];
    const confirmed = await api.client().post('/api/auth/password-reset/confirm', {
      token: decodeURIComponent(link),
      password: 'another good passphrase 7',
      password2: 'another good passphrase 7',
    });
    expect(confirmed.status).toBe(200);
    expect((await latestEmail(user.email, /password was reset/)).text).toContain('Every session was signed out');
    expect((await passkeyLogin(api.client(), authenticator)).status).toBe(401);
    const left = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :passkey)',
        ExpressionAttributeValues: { ':pk': `USER#${user.id}`, ':passkey': 'PASSKEY#' },
      }),
    );
    expect(left.Items).toEqual([]);
  });

  it('the passkey_added notice\'s "this wasn\'t me" link removes that passkey and signs out everywhere, once', async () => {
    const user = await makeUser();
    const { client } = await sessionClient(user);
    const { authenticator, passkey } = await addPasskey(client, new SoftAuthenticator(), 'Intruder key');
    const kept = await addPasskey(client, new SoftAuthenticator(), 'Own key');
    const other = await sessionClient(user, FIREFOX_LINUX);
    const notice = (await emailsTo(user.email)).find((mail) => mail.text.includes('named "Intruder key"'))!;
    expect(notice.text).toContain("Wasn't you? Remove this passkey and sign out everywhere:\nhttp://localhost:3000/passkey-removal?token=");
    expect(notice.text).toContain("Wasn't you? Reset your password:");
    expect(notice.html).toContain('Remove this passkey and sign out everywhere</a>');
    const token = decodeURIComponent(notice.text.match(/passkey-removal\?token=([\w.%-]+)/)![1]);

    // a tampered token, or the other passkey's, does nothing
    const tampered = await api.client().post('/api/auth/passkeys/removal', { token: `${token.slice(0, -2)}xx` });
    expect(tampered.status).toBe(400);
    expect(tampered.body).toEqual({ error: 'invalid_token' });
    expect((await api.client().post('/api/auth/passkeys/removal', { token: '' })).status).toBe(400);
    expect((await client.get('/api/auth/me')).status).toBe(200);

    // no session needed: the link names the account and the passkey
    const removed = await api.client().post('/api/auth/passkeys/removal', { token });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ ok: true });
    expect((await client.get('/api/auth/me')).status).toBe(401);
    expect((await other.client.get('/api/auth/me')).status).toBe(401);
    expect((await passkeyLogin(api.client(), authenticator)).body).toEqual({ error: 'invalid_credentials' });
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.passkeyLookup(passkey.id) }))).Item).toBeUndefined();
    // only that passkey: the owner's own one still signs in
    expect((await passkeyLogin(api.client(), kept.authenticator)).status).toBe(200);
    const entries = (
      await adminClient.get<ListPage<AuditEntry & { action: string; new_values: unknown }>>(`/api/admin/users/${user.id}/audit-logs`)
    ).body.items;
    expect(entries.find((entry) => entry.action === 'auth.passkey_removed')?.new_values).toEqual({
      via: 'notice_link',
      sessions_ended: true,
    });

    // the link acts once: used again it changes nothing
    const fresh = await sessionClient((await getUserById(user.id))!);
    const again = await api.client().post('/api/auth/passkeys/removal', { token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'passkey_not_found' });
    expect((await fresh.client.get('/api/auth/me')).status).toBe(200);
  });

  it('an email change by an administrator notifies the old and the new address', async () => {
    const user = await makeUser();
    const newAddress = `moved-${randomUUID().slice(0, 8)}@example.com`;
    expect((await adminClient.patch(`/api/admin/users/${user.id}`, { email: newAddress })).status).toBe(200);
    expect((await latestEmail(user.email, /email address was changed/)).text).toContain(`to ${newAddress}`);
    expect((await latestEmail(newAddress, /email address was changed/)).text).toContain(`from ${user.email} to this address`);
  });
});
