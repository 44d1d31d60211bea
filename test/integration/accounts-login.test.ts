import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { hashPassword } from '../../functions/accounts/passwords';
import { configureRateLimits } from '../../functions/accounts/rate-limit';
import { db, tableName } from '../../functions/lib/db';
import { keys } from '../../functions/lib/table';
import { insertUser } from '../../functions/lib/users';
import type { twoFactorChallenge } from '../../shared/api-schemas/auth';
import { codeIn, emailsTo, latestEmail, useApi, type ApiClient } from '../helpers/api';
import { withStoppedClock } from '../helpers/clock';
import { storedAuditEntries } from '../helpers/audit-entries';

const api = useApi();
const PASSWORD = 'violet tangerine orbit';
const newEmail = () => `login-${randomUUID().slice(0, 8)}@example.com`;
type TwoFactorChallenge = z.infer<typeof twoFactorChallenge>;

afterEach(() => configureRateLimits());

async function makeUser(overrides: { verified?: boolean } = {}) {
  const email = newEmail();
  const user = await insertUser({
    email,
    first_name: 'Alan',
    last_name: 'Turing',
    password_hash: await hashPassword(PASSWORD),
    verified: overrides.verified ?? true,
  });
  return { email, user };
}

async function setUser(userId: string, values: Record<string, unknown>) {
  const names = Object.keys(values);
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.user(userId),
      UpdateExpression: `SET ${names.map((_, i) => `#n${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#n${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, values[name]])),
    }),
  );
}

async function fullLogin(client: ApiClient, email: string, password = PASSWORD) {
  const step1 = await client.post('/api/auth/login', { email, password });
  expect(step1.status).toBe(200);
  const code = codeIn(await latestEmail(email, /login code/i));
  const step2 = await client.post('/api/auth/verify-2fa', { email, code, challenge_id: step1.body.challenge_id });
  expect(step2.status).toBe(200);
}

describe('POST /api/auth/login', () => {
  it('answers an unknown email exactly like a wrong password', async () => {
    const { email } = await makeUser();
    const wrongPassword = await api.client().post('/api/auth/login', { email, password: 'not the password' });
    const unknownEmail = await api.client().post('/api/auth/login', { email: newEmail(), password: PASSWORD });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(wrongPassword.body).toEqual({ error: 'invalid_credentials' });
    expect(unknownEmail.body).toEqual(wrongPassword.body);
    expect(await emailsTo(email)).toEqual([]);
  });

  it('asks an unverified account to verify, only once the password is right', async () => {
    const { email } = await makeUser({ verified: false });
    const wrong = await api.client().post('/api/auth/login', { email, password: 'not the password' });
    expect(wrong.status).toBe(401);
    const right = await api.client().post('/api/auth/login', { email, password: PASSWORD });
    expect(right.status).toBe(403);
    expect(right.body).toEqual({ error: 'email_not_verified', needsVerification: true });
  });

  it('does not sign in a locked account (revealed only with the right password) nor a deleted one', async () => {
    const locked = await makeUser();
    await setUser(locked.user.id, { status: 'locked', is_locked: true });
    expect((await api.client().post('/api/auth/login', { email: locked.email, password: 'nope nope nope' })).body).toEqual({
      error: 'invalid_credentials',
    });
    const lockedRight = await api.client().post('/api/auth/login', { email: locked.email, password: PASSWORD });
    expect(lockedRight.status).toBe(403);
    expect(lockedRight.body).toEqual({ error: 'account_locked' });

    const deleted = await makeUser();
    await setUser(deleted.user.id, { status: 'deleted' });
    const deletedRight = await api.client().post('/api/auth/login', { email: deleted.email, password: PASSWORD });
    expect(deletedRight.status).toBe(401);
    expect(deletedRight.body).toEqual({ error: 'invalid_credentials' });
    expect(await emailsTo(locked.email)).toEqual([]);
    expect(await emailsTo(deleted.email)).toEqual([]);
  });

  it('writes auth.login_failed audit entries without the password', async () => {
    const { email, user } = await makeUser();
    await api.client({ userAgent: 'audit-agent' }).post('/api/auth/login', { email, password: 'secret guess 123' });
    const audit = { Items: await storedAuditEntries('user', user.id) };
    const failed = (audit.Items ?? []).filter((item) => item.action === 'auth.login_failed');
    expect(failed.length).toBe(1);
    expect(failed[0]).toMatchObject({ entity_type: 'user', entity_id: user.id, user_agent: 'audit-agent' });
    expect(failed[0].ip).toBeTruthy();
    expect(JSON.stringify(failed[0])).not.toContain('secret guess 123');
  });
});

describe('POST /api/auth/verify-2fa', () => {
  it('refuses a wrong code, a code for another email, and kills the challenge after 5 wrong tries', async () => {
    const { email } = await makeUser();
    const client = api.client();
    const step1 = await client.post('/api/auth/login', { email, password: PASSWORD });
    const code = codeIn(await latestEmail(email, /login code/i));
    const wrong = code === '000000' ? '111111' : '000000';

    const otherEmail = await client.post('/api/auth/verify-2fa', { email: newEmail(), code, challenge_id: step1.body.challenge_id });
    expect(otherEmail.status).toBe(400);
    expect(otherEmail.body).toEqual({ error: 'invalid_code', attempts_left: 4 });
    const noChallenge = await client.post('/api/auth/verify-2fa', { email, code, challenge_id: 'no-such-challenge' });
    expect(noChallenge.body).toEqual({ error: 'invalid_code', attempts_left: 0, spent: true });

    for (let i = 0; i < 4; i++) {
      const response = await client.post('/api/auth/verify-2fa', { email, code: wrong, challenge_id: step1.body.challenge_id });
      expect(response.status).toBe(400);
      // The caller proved the password: it is told how many tries are left, then that the code is spent.
      expect(response.body).toEqual(
        i < 3 ? { error: 'invalid_code', attempts_left: 3 - i } : { error: 'invalid_code', attempts_left: 0, spent: true },
      );
    }
    // Five wrong tries so far (the other email counted): the right code no longer works.
    const dead = await client.post('/api/auth/verify-2fa', { email, code, challenge_id: step1.body.challenge_id });
    expect(dead.status).toBe(400);
    expect(dead.body).toEqual({ error: 'invalid_code', attempts_left: 0, spent: true });
    expect((await client.get('/api/auth/me')).status).toBe(401);
  });

  it('refuses an expired code', async () => {
    const { email } = await makeUser();
    const client = api.client();
    const step1 = await client.post<TwoFactorChallenge>('/api/auth/login', { email, password: PASSWORD });
    const code = codeIn(await latestEmail(email, /login code/i));
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.challenge(step1.body.challenge_id),
        UpdateExpression: 'SET expires_at = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    const response = await client.post('/api/auth/verify-2fa', { email, code, challenge_id: step1.body.challenge_id });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'invalid_code', attempts_left: 0, spent: true });
  });

  it('accepts a pasted code with spaces or dashes', async () => {
    const { email } = await makeUser();
    const client = api.client();
    const step1 = await client.post('/api/auth/login', { email, password: PASSWORD });
    const code = codeIn(await latestEmail(email, /login code/i));
    const pasted = `${code.slice(0, 3)} - ${code.slice(3)}`;
    const response = await client.post('/api/auth/verify-2fa', { email, code: pasted, challenge_id: step1.body.challenge_id });
    expect(response.status).toBe(200);
  });

  it('stores the code only hashed, with a 10-minute TTL', async () => {
    const { email } = await makeUser();
    const step1 = await api.client().post<TwoFactorChallenge>('/api/auth/login', { email, password: PASSWORD });
    const code = codeIn(await latestEmail(email, /login code/i));
    const item = (await db().send(new GetCommand({ TableName: tableName(), Key: keys.challenge(step1.body.challenge_id) }))).Item!;
    expect(JSON.stringify(item)).not.toContain(code);
    const ttl = item.expires_at - Math.floor(Date.now() / 1000);
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);
    expect(item.attempts).toBe(0);
  });
});

describe('sessions', () => {
  it('ends an existing session at once when the account is locked in the table', async () => {
    const { email, user } = await makeUser();
    const client = api.client();
    await fullLogin(client, email);
    expect((await client.get('/api/auth/me')).status).toBe(200);
    await setUser(user.id, { is_locked: true });
    expect((await client.get('/api/auth/me')).status).toBe(401);
  });
});

describe('login backoff and caps', () => {
  it('makes each try after 5 consecutive failures wait twice as long, and a success resets it', async () => {
    const { email } = await makeUser();
    const client = api.client();
    await withStoppedClock(async (advance) => {
      for (let i = 0; i < 5; i++) {
        expect((await client.post('/api/auth/login', { email, password: `wrong ${i} password` })).status).toBe(401);
      }
      const waiting = await client.post('/api/auth/login', { email, password: PASSWORD });
      expect(waiting.status).toBe(429);
      expect(waiting.body).toEqual({ error: 'throttled', retry_after: 1 });
      expect(waiting.headers.get('retry-after')).toBe('1');

      advance(1100);
      expect((await client.post('/api/auth/login', { email, password: 'wrong again password' })).status).toBe(401);
      const longer = await client.post('/api/auth/login', { email, password: PASSWORD });
      expect(longer.status).toBe(429);
      expect(longer.body.retry_after).toBe(2);

      advance(2100);
      expect((await client.post('/api/auth/login', { email, password: PASSWORD })).status).toBe(200);
      // Reset: the next failures are answered at once again.
      expect((await client.post('/api/auth/login', { email, password: 'wrong once more' })).status).toBe(401);
      expect((await client.post('/api/auth/login', { email, password: 'wrong twice more' })).status).toBe(401);
    });
  });

  it('backs off an unknown email the same way (no enumeration through 429)', async () => {
    const email = newEmail();
    await withStoppedClock(async () => {
      for (let i = 0; i < 5; i++)
        expect((await api.client().post('/api/auth/login', { email, password: `guess ${i} password` })).status).toBe(401);
      const waiting = await api.client().post('/api/auth/login', { email, password: 'guess 6 password' });
      expect(waiting.status).toBe(429);
      expect(waiting.body).toEqual({ error: 'throttled', retry_after: 1 });
    });
  });

  it('never allows more than the hourly cap of failures per account', async () => {
    configureRateLimits({ loginFailuresPerAccount: { limit: 3, windowSeconds: 3600 } });
    const { email } = await makeUser();
    for (let i = 0; i < 3; i++)
      expect((await api.client().post('/api/auth/login', { email, password: `wrong ${i} password` })).status).toBe(401);
    const capped = await api.client().post('/api/auth/login', { email, password: PASSWORD });
    expect(capped.status).toBe(429);
    expect(capped.body.error).toBe('throttled');
    expect(capped.body.retry_after).toBeGreaterThan(0);
  });
});
