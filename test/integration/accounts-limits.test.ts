import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRateLimits } from '../../functions/accounts/rate-limit';
import { getUserByEmail } from '../../functions/lib/users';
import { codeIn, emailsTo, latestEmail, useApi } from '../helpers/api';

/**
 * Per-IP and per-email limits. Every request here comes from 127.0.0.1, so each test lowers the
 * one limit it checks (the file has its own table, so counts start at zero).
 */
const api = useApi();
const PASSWORD = 'harbor pepper lantern';
const newEmail = () => `limits-${randomUUID().slice(0, 8)}@example.com`;
const form = (email: string) => ({ first_name: 'Radia', last_name: 'Perlman', email, password: PASSWORD, passwordConfirm: PASSWORD });

afterEach(() => configureRateLimits());

describe('rate limits', () => {
  it('caps registrations per IP', async () => {
    configureRateLimits({ registerPerIp: { limit: 3, windowSeconds: 3600 } });
    for (let i = 0; i < 3; i++) expect((await api.client().post('/api/auth/register', form(newEmail()))).status).toBe(201);
    const email = newEmail();
    const refused = await api.client().post('/api/auth/register', form(email));
    expect(refused.status).toBe(429);
    const anyNumber: unknown = expect.any(Number); // `expect.any` is typed `any`: held as `unknown` to keep the object typed
    expect(refused.body).toMatchObject({ error: 'throttled', retry_after: anyNumber });
    expect(await getUserByEmail(email)).toBeUndefined();
  });

  it('caps registration attempts per email', async () => {
    configureRateLimits({ registerPerEmail: { limit: 2, windowSeconds: 3600 } });
    const email = newEmail();
    expect((await api.client().post('/api/auth/register', form(email))).status).toBe(201);
    expect((await api.client().post('/api/auth/register', form(email))).body).toEqual({ error: 'verification_pending' });
    const refused = await api.client().post('/api/auth/register', form(email.toUpperCase()));
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('throttled');
  });

  it('caps failed logins per IP, across accounts', async () => {
    configureRateLimits({ loginFailuresPerIp: { limit: 3, windowSeconds: 3600 } });
    for (let i = 0; i < 3; i++) {
      expect((await api.client().post('/api/auth/login', { email: newEmail(), password: 'wrong password here' })).status).toBe(401);
    }
    const refused = await api.client().post('/api/auth/login', { email: newEmail(), password: 'wrong password here' });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('throttled');
  });

  it('caps code checks per IP, on top of the 5-tries rule', async () => {
    configureRateLimits({ codeChecksPerIp: { limit: 2, windowSeconds: 3600 } });
    const email = newEmail();
    await api.client().post('/api/auth/register', form(email));
    const code = codeIn(await latestEmail(email, /Verify/));
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await api.client().post('/api/auth/verify-email', { email, code: wrong })).status).toBe(400);
    expect((await api.client().post('/api/auth/verify-2fa', { email, code: wrong, challenge_id: 'x' })).status).toBe(400);
    const refused = await api.client().post('/api/auth/verify-email', { email, code });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('throttled');
  });

  it('caps reset requests per email and per IP', async () => {
    configureRateLimits({ resetRequestsPerEmail: { limit: 2, windowSeconds: 3600 } });
    const email = newEmail();
    for (let i = 0; i < 2; i++) expect((await api.client().post('/api/auth/password-reset/request', { email })).status).toBe(200);
    const perEmail = await api.client().post('/api/auth/password-reset/request', { email });
    expect(perEmail.status).toBe(429);
    expect(perEmail.body.error).toBe('throttled');

    // Three requests counted for this IP so far.
    configureRateLimits({ resetRequestsPerIp: { limit: 4, windowSeconds: 3600 } });
    expect((await api.client().post('/api/auth/password-reset/request', { email: newEmail() })).status).toBe(200);
    const perIp = await api.client().post('/api/auth/password-reset/request', { email: newEmail() });
    expect(perIp.status).toBe(429);
    expect(perIp.body.error).toBe('throttled');
  });

  it('sends at most five verification codes an hour per email', async () => {
    // One a minute is checked in accounts-register; here the hourly cap, with the minute rule lifted.
    configureRateLimits({ codeResendPerMinute: { limit: 100, windowSeconds: 60 } });
    const email = newEmail();
    await api.client().post('/api/auth/register', form(email));
    for (let i = 0; i < 6; i++)
      expect((await api.client().post('/api/auth/register', form(email))).body).toEqual({ error: 'verification_pending' });
    expect((await emailsTo(email)).length).toBe(5);
  });
});
