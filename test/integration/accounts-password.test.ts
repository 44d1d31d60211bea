import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../functions/accounts/passwords';
import { db, tableName } from '../../functions/lib/db';
import { SESSION_COOKIE, startSession } from '../../functions/lib/session';
import { getUserByEmail, getUserById, insertUser } from '../../functions/lib/users';
import { emailsTo, latestEmail, useApi } from '../helpers/api';
import { signIn } from '../helpers/users';
import { storedAuditEntries } from '../helpers/audit-entries';

const api = useApi();
const client = () => api.client({ userAgent: 'password-test' });

const PASSWORD = 'copper meadow violin';
const NEW_PASSWORD = 'saffron glacier piano';

async function makeUser(status: 'active' | 'locked' = 'active') {
  const email = `pw-${randomUUID().slice(0, 8)}@example.com`;
  const user = await insertUser({
    email,
    first_name: 'Barbara',
    last_name: 'Liskov',
    password_hash: await hashPassword(PASSWORD),
    verified: true,
    status,
  });
  return { email, user };
}

async function auditActions(userId: string): Promise<string[]> {
  const result = { Items: await storedAuditEntries('user', userId) };
  return (result.Items ?? []).map((item) => item.action as string);
}

async function requestToken(email: string): Promise<string> {
  const response = await client().post('/api/auth/password-reset/request', { email });
  expect(response.status).toBe(200);
  const mail = await latestEmail(email, /Reset your password/);
  expect(mail.text).toMatch(/valid for 1 hour/);
  const link = /(http\S+reset-password\?token=\S+)/.exec(mail.text)![1];
  expect(link.startsWith('http://localhost:3000/reset-password?token=')).toBe(true);
  return decodeURIComponent(new URL(link).searchParams.get('token')!);
}

describe('password reset', () => {
  it('answers an unknown email exactly like a real one, and sends nothing', async () => {
    const { email } = await makeUser();
    const unknown = `nobody-${randomUUID().slice(0, 8)}@example.com`;
    const real = await client().post('/api/auth/password-reset/request', { email });
    const none = await client().post('/api/auth/password-reset/request', { email: unknown });
    expect(none.status).toBe(real.status);
    expect(none.body).toEqual(real.body);
    expect(real.body).toEqual({ ok: true });
    expect(await emailsTo(unknown)).toEqual([]);
    expect((await emailsTo(email)).length).toBe(1);
  });

  it('sends nothing to a locked account', async () => {
    const { email } = await makeUser('locked');
    expect((await client().post('/api/auth/password-reset/request', { email })).body).toEqual({ ok: true });
    expect(await emailsTo(email)).toEqual([]);
  });

  it('validates tokens: a real one is ok, a made-up or missing one is invalid_or_expired', async () => {
    const { email } = await makeUser();
    const token = await requestToken(email);
    expect((await client().get(`/api/auth/password-reset/validate?token=${encodeURIComponent(token)}`)).body).toEqual({ ok: true });
    const madeUp = await client().get('/api/auth/password-reset/validate?token=abc');
    expect(madeUp.status).toBe(400);
    expect(madeUp.body).toEqual({ error: 'invalid_or_expired' });
    expect((await client().get('/api/auth/password-reset/validate')).body).toEqual({ error: 'invalid_or_expired' });
  });

  it('refuses weak and mismatched passwords, then resets once, ending every session', async () => {
    const { email, user } = await makeUser();
    const older = client();
    await signIn(older, user);
    expect((await older.get('/api/auth/me')).status).toBe(200);

    const token = await requestToken(email);
    const weak = await client().post('/api/auth/password-reset/confirm', { token, password: 'password1', password2: 'password1' });
    expect(weak.status).toBe(400);
    expect(weak.body).toEqual({ error: 'common_password' });
    expect((await client().post('/api/auth/password-reset/confirm', { token, password: email, password2: email })).body).toEqual({
      error: 'weak_password',
    });
    expect((await client().post('/api/auth/password-reset/confirm', { token, password: 'short', password2: 'short' })).body).toEqual({
      error: 'weak_password',
    });
    const mismatch = await client().post('/api/auth/password-reset/confirm', {
      token,
      password: NEW_PASSWORD,
      password2: `${NEW_PASSWORD}x`,
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toEqual({ error: 'password_mismatch' });

    const done = await client().post('/api/auth/password-reset/confirm', { token, password: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ ok: true });
    expect(await verifyPassword(NEW_PASSWORD, (await getUserById(user.id))!.password_hash)).toBe(true);
    expect((await older.get('/api/auth/me')).status).toBe(401);

    // Single use.
    const again = await client().post('/api/auth/password-reset/confirm', { token, password: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'invalid_or_expired' });
    expect((await client().get(`/api/auth/password-reset/validate?token=${encodeURIComponent(token)}`)).body).toEqual({
      error: 'invalid_or_expired',
    });

    // The new password signs in.
    expect((await client().post('/api/auth/login', { email, password: NEW_PASSWORD })).status).toBe(200);
    expect(await auditActions(user.id)).toEqual(expect.arrayContaining(['auth.password_reset_requested', 'auth.password_reset']));
  });

  it('refuses an expired token', async () => {
    const { email } = await makeUser();
    const token = await requestToken(email);
    const { createHash } = await import('node:crypto');
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `RESET#${createHash('sha256').update(token).digest('base64url')}`, sk: 'RESET' },
        UpdateExpression: 'SET expires_at = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    expect((await client().get(`/api/auth/password-reset/validate?token=${encodeURIComponent(token)}`)).body).toEqual({
      error: 'invalid_or_expired',
    });
    const confirm = await client().post('/api/auth/password-reset/confirm', { token, password: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect(confirm.status).toBe(400);
    expect(confirm.body).toEqual({ error: 'invalid_or_expired' });
  });
});

describe('POST /api/settings/password', () => {
  it('needs a session', async () => {
    expect((await client().post('/api/settings/password', {})).status).toBe(401);
  });

  it('answers invalid_current_password, weak_password and password_mismatch', async () => {
    const { user } = await makeUser();
    const session = client();
    await signIn(session, user);
    const wrongCurrent = await session.post('/api/settings/password', {
      current_password: 'not it at all',
      new_password: NEW_PASSWORD,
      confirm_new_password: NEW_PASSWORD,
    });
    expect(wrongCurrent.status).toBe(400);
    expect(wrongCurrent.body).toEqual({ error: 'invalid_current_password' });
    const weak = await session.post('/api/settings/password', {
      current_password: PASSWORD,
      new_password: 'qwerty123',
      confirm_new_password: 'qwerty123',
    });
    expect(weak.status).toBe(400);
    expect(weak.body).toEqual({ error: 'common_password' });
    const short = await session.post('/api/settings/password', {
      current_password: PASSWORD,
      new_password: 'short',
      confirm_new_password: 'short',
    });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ error: 'weak_password' });
    const mismatch = await session.post('/api/settings/password', {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
      confirm_new_password: 'something else',
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toEqual({ error: 'password_mismatch' });
    expect(await verifyPassword(PASSWORD, (await getUserById(user.id))!.password_hash)).toBe(true);
  });

  it('changes the password, keeps the current session and ends the others', async () => {
    const { email, user } = await makeUser();
    const current = client();
    const other = client();
    await signIn(current, user);
    await signIn(other, user);
    const changed = await current.post('/api/settings/password', {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
      confirm_new_password: NEW_PASSWORD,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ ok: true });
    expect(changed.setCookies.some((c) => c.startsWith('__Host-session=') && !/Max-Age=0/i.test(c))).toBe(true);

    expect((await current.get('/api/auth/me')).status).toBe(200);
    expect((await other.get('/api/auth/me')).status).toBe(401);
    const stored = (await getUserByEmail(email))!;
    expect(await verifyPassword(NEW_PASSWORD, stored.password_hash)).toBe(true);
    expect(await auditActions(user.id)).toContain('auth.password_changed');
  });

  it('does not extend the 12-hour absolute limit: the re-issued cookie keeps the sign-in time', async () => {
    const { user } = await makeUser();
    const current = client();
    const { sessionId } = await startSession(user);
    const signedInAt = Math.floor(Date.now() / 1000) - 11 * 3600;
    const token = await new SignJWT({ sid: sessionId, ver: user.session_version, auth_time: signedInAt })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('career-program')
      .setAudience('career-program-web')
      .setSubject(user.id)
      .setIssuedAt()
      .setExpirationTime('30m')
      .sign(new TextEncoder().encode(process.env.SESSION_SECRET));
    current.setCookie(SESSION_COOKIE, token);
    const changed = await current.post('/api/settings/password', {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
      confirm_new_password: NEW_PASSWORD,
    });
    expect(changed.status).toBe(200);
    const cookie = changed.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
    const claims = decodeJwt(cookie.split(';')[0].slice(SESSION_COOKIE.length + 1));
    expect(claims.auth_time).toBe(signedInAt);
    expect(claims.exp).toBeLessThanOrEqual(signedInAt + 12 * 3600);
  });
});
