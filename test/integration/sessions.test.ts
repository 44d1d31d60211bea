import { SIGNED_IN_HINT_COOKIE } from '../../shared/constants';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../functions/lib/config';
import { capacityMeter } from '../../functions/lib/db';
import { endAllSessions, SESSION_COOKIE, startSession } from '../../functions/lib/session';
import { resetKeyRingForTests } from '../../functions/lib/session-keys';
import { useApi } from '../helpers/api';
import { createTestUser } from '../helpers/users';

const api = useApi();
const secret = new TextEncoder().encode(process.env.SESSION_SECRET);
const now = () => Math.floor(Date.now() / 1000);

/** A real session (its item exists), then its token's claims to forge variants from. */
async function realSession() {
  const user = await createTestUser();
  const { cookie } = await startSession(user);
  const token = cookie.split(';')[0].slice(SESSION_COOKIE.length + 1);
  return { user, token, claims: decodeJwt(token) };
}

async function meWith(token: string) {
  const client = api.client();
  client.setCookie(SESSION_COOKIE, token);
  return client.get('/api/auth/me');
}

const sign = (claims: Record<string, unknown>, header: Record<string, unknown> = { alg: 'HS256' }) =>
  new SignJWT(claims).setProtectedHeader(header as { alg: string }).sign(secret);

describe('session tokens', () => {
  it('accepts the real token', async () => {
    const { token, user } = await realSession();
    const response = await meWith(token);
    expect(response.status).toBe(200);
    expect(response.body.email).toBe(user.email);
  });

  it('refuses a tampered token (payload changed, signature kept)', async () => {
    const { token } = await realSession();
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url');
    expect((await meWith(`${header}.${forged}.${signature}`)).status).toBe(401);
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
    expect((await meWith(`${header}.${payload}.${flipped}`)).status).toBe(401);
  });

  it('refuses an unsigned alg:none token with valid claims', async () => {
    const { token } = await realSession();
    const payload = token.split('.')[1];
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const response = await meWith(`${none}.${payload}.`);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'unauthorized' });
  });

  it('refuses an expired token (idle timeout passed)', async () => {
    const { claims } = await realSession();
    const expired = await sign({ ...claims, iat: now() - 3 * 3600, exp: now() - 60 });
    expect((await meWith(expired)).status).toBe(401);
  });

  it('refuses a token past the 12-hour absolute lifetime even if not expired', async () => {
    const { claims } = await realSession();
    const old = await sign({ ...claims, auth_time: now() - 13 * 3600, iat: now() - 60, exp: now() + 600 });
    expect((await meWith(old)).status).toBe(401);
  });

  it('refuses a token of another issuer or audience, or signed with another key', async () => {
    const { claims } = await realSession();
    expect((await meWith(await sign({ ...claims, iss: 'someone-else' }))).status).toBe(401);
    expect((await meWith(await sign({ ...claims, aud: 'another-app' }))).status).toBe(401);
    const otherKey = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('x'.repeat(40)));
    expect((await meWith(otherKey)).status).toBe(401);
  });

  it('ends a session unused for 30 minutes, even on a token whose expiry is later (signed under a longer timeout)', async () => {
    const { claims } = await realSession();
    const idle = await sign({ ...claims, iat: now() - 31 * 60, exp: now() + 29 * 60 });
    expect((await meWith(idle)).status).toBe(401);
    const recent = await sign({ ...claims, iat: now() - 29 * 60, exp: now() + 60 });
    expect((await meWith(recent)).status).toBe(200);
  });

  it('renews a token that is a few minutes old (sliding idle timeout) without extending the absolute lifetime', async () => {
    const { claims } = await realSession();
    const older = await sign({ ...claims, iat: now() - 10 * 60, exp: now() + 50 * 60 });
    const client = api.client();
    client.setCookie(SESSION_COOKIE, older);
    const response = await client.get('/api/auth/me');
    expect(response.status).toBe(200);
    const renewed = response.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    expect(renewed).toBeDefined();
    const renewedClaims = decodeJwt(renewed!.split(';')[0].slice(SESSION_COOKIE.length + 1));
    // the 30-minute idle timeout, from now
    expect(renewedClaims.exp! - now()).toBeGreaterThan(29 * 60);
    expect(renewedClaims.exp! - now()).toBeLessThanOrEqual(30 * 60);
    expect(renewedClaims.auth_time).toBe(claims.auth_time);
  });

  it('does not look the session up on public routes that do not use it', async () => {
    const { claims } = await realSession();
    const client = api.client();
    client.setCookie(SESSION_COOKIE, await sign({ ...claims, iat: now() - 10 * 60, exp: now() + 50 * 60 }));
    const health = await client.get('/api/health');
    expect(health.status).toBe(200);
    expect(capacityMeter.calls).toBe(1); // DescribeTable only: no session read
    expect(health.setCookies).toEqual([]); // so no renewal either
    // the renewed session cookie and, beside it, the signed-in hint (docs/api.md#the-signed-in-hint)
    const renewed = (await client.get('/api/auth/me')).setCookies;
    expect(renewed.map((cookie) => cookie.split('=')[0])).toEqual([SESSION_COOKIE, SIGNED_IN_HINT_COOKIE]);
    expect(renewed[1]).toMatch(/^signed_in=1; Path=\/; Secure; SameSite=Lax; Max-Age=\d+$/);
    expect(/Max-Age=\d+/.exec(renewed[1])?.[0]).toBe(/Max-Age=\d+/.exec(renewed[0])?.[0]);
  });

  it('ends the session server-side on logout: the old cookie no longer works', async () => {
    const { token } = await realSession();
    const client = api.client();
    client.setCookie(SESSION_COOKIE, token);
    const logout = await client.post('/api/auth/logout', {});
    expect(logout.status).toBe(200);
    expect(logout.setCookies.some((c) => /^__Host-session=;.*Max-Age=0/.test(c))).toBe(true);
    expect(logout.setCookies).toContainEqual(expect.stringMatching(/^signed_in=; Path=\/;.*Max-Age=0$/));
    expect((await meWith(token)).status).toBe(401);
  });
});

describe('signing keys (docs/security.md#session-signing-keys)', () => {
  const original = process.env.SESSION_SECRET!;
  const useKeys = (current: string, previous?: string) => {
    process.env.SESSION_SECRET = current;
    if (previous) process.env.SESSION_SECRET_PREVIOUS = previous;
    else delete process.env.SESSION_SECRET_PREVIOUS;
    resetConfigForTests();
    resetKeyRingForTests();
  };

  it('rotates without signing anyone out: the new key signs, the old key still verifies, until it is dropped', async () => {
    const { token } = await realSession();
    const oldKid = decodeProtectedHeader(token).kid;
    expect(oldKid).toEqual(expect.any(String));
    const newKey = 'rotated-session-key-rotated-session-key';
    try {
      useKeys(newKey, original);
      expect((await meWith(token)).status).toBe(200);
      const fresh = await realSession();
      expect(decodeProtectedHeader(fresh.token).kid).not.toBe(oldKid);
      expect((await meWith(fresh.token)).status).toBe(200);
      useKeys(newKey);
      expect((await meWith(token)).status).toBe(401);
      expect((await meWith(fresh.token)).status).toBe(200);
    } finally {
      useKeys(original);
    }
  });

  it('keeps the sign-in time when a password change re-issues the cookie (no extension of the 12-hour limit)', async () => {
    const { user, claims } = await realSession();
    const signedInAt = now() - 11 * 3600;
    const { cookie } = await endAllSessions(user.id, 'signedIn', { sessionId: String(claims.sid), authTime: signedInAt });
    const reissued = decodeJwt(cookie!.split(';')[0].slice(SESSION_COOKIE.length + 1));
    expect(reissued.auth_time).toBe(signedInAt);
    expect(reissued.exp).toBeLessThanOrEqual(signedInAt + 12 * 3600);
  });
});
