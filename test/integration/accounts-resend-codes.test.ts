import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../functions/accounts/passwords';
import { configureRateLimits } from '../../functions/accounts/rate-limit';
import { db, tableName } from '../../functions/lib/db';
import { keys } from '../../functions/lib/table';
import { insertUser } from '../../functions/lib/users';
import { codeIn, emailsTo, latestEmail, useApi } from '../helpers/api';

const api = useApi();
const PASSWORD = 'violet tangerine orbit';
const newEmail = () => `resend-${randomUUID().slice(0, 8)}@example.com`;

afterEach(() => configureRateLimits());

async function makeUser(verified: boolean) {
  const email = newEmail();
  const user = await insertUser({ email, first_name: 'Grace', last_name: 'Hopper', password_hash: await hashPassword(PASSWORD), verified });
  return { email, user };
}

describe('POST /api/auth/resend-verification', () => {
  it('sends a new code to an unverified account, and the new code verifies it', async () => {
    const { email } = await makeUser(false);
    const response = await api.client().post('/api/auth/resend-verification', { email: ` ${email.toUpperCase()} ` });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ ok: true });
    const code = codeIn(await latestEmail(email, /verify/i));
    expect((await api.client().post('/api/auth/verify-email', { email, code })).status).toBe(200);
  });

  it('answers the same for an unknown, a verified and a deleted address, and sends nothing', async () => {
    const verified = await makeUser(true);
    const unknown = newEmail();
    const answers = [
      await api.client().post('/api/auth/resend-verification', { email: unknown }),
      await api.client().post('/api/auth/resend-verification', { email: verified.email }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual({ ok: true });
    }
    // what is no address at all is the client's mistake, and says nothing of any account
    expect((await api.client().post('/api/auth/resend-verification', { email: '' })).body).toEqual({ error: 'invalid_email' });
    expect(await emailsTo(unknown)).toEqual([]);
    expect(await emailsTo(verified.email)).toEqual([]);
  });

  it('sends at most one code a minute per address (silently) and throttles an IP', async () => {
    const { email } = await makeUser(false);
    expect((await api.client().post('/api/auth/resend-verification', { email })).status).toBe(202);
    expect((await api.client().post('/api/auth/resend-verification', { email })).status).toBe(202);
    expect((await emailsTo(email)).length).toBe(1);

    configureRateLimits({ codeResendPerIp: { limit: 0, windowSeconds: 3600 } });
    const throttled = await api.client().post('/api/auth/resend-verification', { email });
    expect(throttled.status).toBe(429);
    expect(throttled.body.error).toBe('throttled');
    expect(throttled.body.retry_after).toBeGreaterThan(0);
  });

  it('refuses a body without an email with 400', async () => {
    const response = await api.client().post('/api/auth/resend-verification', {});
    expect(response.status).toBe(400);
  });
});

describe('POST /api/auth/resend-2fa', () => {
  async function startLogin() {
    const { email, user } = await makeUser(true);
    const client = api.client();
    const step1 = await client.post('/api/auth/login', { email, password: PASSWORD });
    expect(step1.status).toBe(200);
    const firstCode = codeIn(await latestEmail(email, /login code/i));
    return { email, user, client, challengeId: step1.body.challenge_id as string, firstCode };
  }

  it('issues a fresh challenge that signs in; the old challenge and code die', async () => {
    const { email, client, challengeId, firstCode } = await startLogin();
    const wrong = firstCode === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) await client.post('/api/auth/verify-2fa', { email, code: wrong, challenge_id: challengeId });

    const resent = await client.post('/api/auth/resend-2fa', { email, challenge_id: challengeId });
    expect(resent.status).toBe(200);
    expect(resent.body.two_factor_pending).toBe(true);
    expect(resent.body.challenge_id).not.toBe(challengeId);
    expect((await emailsTo(email)).length).toBe(2);
    const old = await db().send(new GetCommand({ TableName: tableName(), Key: keys.challenge(challengeId), ConsistentRead: true }));
    expect(old.Item).toBeUndefined();

    // Both emails may carry the same timestamp: the store lists them in the order they were sent.
    const newCode = codeIn((await emailsTo(email)).at(-1)!);
    const stale = await client.post('/api/auth/verify-2fa', { email, code: firstCode, challenge_id: challengeId });
    expect(stale.body).toEqual({ error: 'invalid_code', attempts_left: 0, spent: true });
    const ok = await client.post('/api/auth/verify-2fa', { email, code: newCode, challenge_id: resent.body.challenge_id });
    expect(ok.status).toBe(200);
    expect((await client.get('/api/auth/me')).status).toBe(200);
  });

  it('tells a code a newer one replaced apart from a wrong code (still a counted try); the newer code signs in', async () => {
    const { email, client, challengeId, firstCode } = await startLogin();
    const resent = await client.post('/api/auth/resend-2fa', { email, challenge_id: challengeId });
    expect(resent.status).toBe(200);
    const newCode = codeIn((await emailsTo(email)).at(-1)!);
    const newChallenge = resent.body.challenge_id as string;
    const replaced = await client.post('/api/auth/verify-2fa', { email, code: firstCode, challenge_id: newChallenge });
    expect(replaced.status).toBe(400);
    expect(replaced.body).toEqual({ error: 'code_replaced', attempts_left: 4 });
    const wrong = [firstCode, newCode].includes('000000')
      ? (['111111', '222222'].find((c) => c !== firstCode && c !== newCode) ?? '333333')
      : '000000';
    expect((await client.post('/api/auth/verify-2fa', { email, code: wrong, challenge_id: newChallenge })).body).toEqual({
      error: 'invalid_code',
      attempts_left: 3,
    });
    const ok = await client.post('/api/auth/verify-2fa', { email, code: newCode, challenge_id: newChallenge });
    expect(ok.status).toBe(200);
  });

  it('allows one resend a minute and says how long to wait', async () => {
    const { email, client, challengeId } = await startLogin();
    const first = await client.post('/api/auth/resend-2fa', { email, challenge_id: challengeId });
    expect(first.status).toBe(200);
    const second = await client.post('/api/auth/resend-2fa', { email, challenge_id: first.body.challenge_id });
    expect(second.status).toBe(429);
    expect(second.body.error).toBe('throttled');
    expect(second.body.retry_after).toBeGreaterThan(0);
    expect((await emailsTo(email)).length).toBe(2);
  });

  it('answers challenge_expired for an unknown, expired or foreign challenge, or a locked account', async () => {
    const { email, user, client, challengeId } = await startLogin();
    expect((await client.post('/api/auth/resend-2fa', { email, challenge_id: 'no-such-challenge' })).body).toEqual({
      error: 'challenge_expired',
    });
    expect((await client.post('/api/auth/resend-2fa', { email, challenge_id: 'bad id!' })).body).toEqual({ error: 'challenge_expired' });
    expect((await client.post('/api/auth/resend-2fa', { email: newEmail(), challenge_id: challengeId })).body).toEqual({
      error: 'challenge_expired',
    });

    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(user.id),
        UpdateExpression: 'SET is_locked = :t',
        ExpressionAttributeValues: { ':t': true },
      }),
    );
    const locked = await client.post('/api/auth/resend-2fa', { email, challenge_id: challengeId });
    expect(locked.status).toBe(400);
    expect(locked.body).toEqual({ error: 'challenge_expired' });

    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.challenge(challengeId),
        UpdateExpression: 'SET expires_at = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    expect((await client.post('/api/auth/resend-2fa', { email, challenge_id: challengeId })).body).toEqual({ error: 'challenge_expired' });
    expect((await emailsTo(email)).length).toBe(1);
  });
});
