import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import type { Caller } from '../../functions/lib/caller';
import { finishLogin, startLogin } from '../../functions/accounts/login';
import { finishPasskeyRegistration, startPasskeyRegistration } from '../../functions/accounts/passkey-registration';
import { finishPasskeyLogin, startPasskeyLogin } from '../../functions/accounts/passkey-sign-in';
import { hashPassword } from '../../functions/accounts/passwords';
import { register } from '../../functions/accounts/registration';
import { configureRateLimits } from '../../functions/accounts/rate-limit';
import { DEVICE_COOKIE } from '../../functions/accounts/trusted-device';
import { db, tableName } from '../../functions/lib/db';
import { keys } from '../../functions/lib/table';
import { runAs } from '../../infra/local/iam/twin';
import { insertUser } from '../../functions/lib/users';
import { codeIn, latestEmail, useApi } from '../helpers/api';
import { withStoppedClock } from '../helpers/clock';
import { SoftAuthenticator } from '../helpers/soft-authenticator';
import { createTestUser, signIn } from '../helpers/users';
import { storedAuditEntries } from '../helpers/audit-entries';

/**
 * docs/security.md: no lock-out by strangers and bounded guessing, atomic reservations, security
 * events in the audit log, reset links that die with the password, privacy of the audit log.
 * Sign-in is driven through the domain with explicit callers, so attempts can come from many
 * addresses; everything else through the API.
 */
const api = useApi();
const PASSWORD = 'amber falcon meadow';
const ORIGIN = 'http://localhost:3000';
const newEmail = () => `sec-${randomUUID().slice(0, 8)}@example.com`;
const from = (ip: string, cookies?: string): Caller => ({ ip, userAgent: 'security-test', cookies });
let nextIp = 1;
const strangerIp = () => `203.0.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`;

afterEach(() => configureRateLimits());

async function makeUser(overrides: { verified?: boolean; status?: 'active' | 'locked' } = {}) {
  const email = newEmail();
  const user = await insertUser({
    email,
    first_name: 'Ada',
    last_name: 'Lovelace',
    password_hash: await hashPassword(PASSWORD),
    verified: overrides.verified ?? true,
    status: overrides.status ?? 'active',
  });
  return { email, user };
}

/** The owner's full sign-in from `ip`: returns the device cookie their browser now holds. */
async function ownerSignsIn(email: string, ip: string): Promise<string> {
  const { challengeId, browserCookie } = await startLogin({ email, password: PASSWORD }, from(ip));
  const code = codeIn(await latestEmail(email, /login code/i));
  const { deviceCookie } = await finishLogin({ email, code, challenge_id: challengeId }, from(ip, browserCookie.split(';')[0]));
  return deviceCookie.split(';')[0];
}

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: { code?: string }) => error.code ?? 'error',
  );

/** An audit entry as stored (the fields these tests read). */
interface StoredAudit {
  action?: string;
  new_values?: Record<string, unknown>;
  user_agent?: string;
  ip?: string;
  actor_user_id?: string;
  expires_at: number;
}

/** The entries about an entity given as `<type>#<id>`. */
async function auditOf(entity: string): Promise<StoredAudit[]> {
  const hash = entity.indexOf('#');
  return storedAuditEntries<StoredAudit>(entity.slice(0, hash), entity.slice(hash + 1));
}

describe('a stranger cannot lock the owner out', () => {
  it('backs off only the address that fails: the owner, elsewhere, signs in at once', async () => {
    const { email } = await makeUser();
    const stranger = strangerIp();
    for (let i = 0; i < 5; i++)
      expect(await outcome(startLogin({ email, password: `guess ${i} guess` }, from(stranger)))).toBe('invalid_credentials');
    expect(await outcome(startLogin({ email, password: 'guess 6 guess' }, from(stranger)))).toBe('throttled');
    expect(await outcome(startLogin({ email, password: PASSWORD }, from('198.51.100.20')))).toBe('ok');
  });

  it('lets the owner in from a trusted device while strangers have filled the account pool', async () => {
    configureRateLimits({ loginFailuresPerAccount: { limit: 6, windowSeconds: 3600 } });
    const { email } = await makeUser();
    const device = await ownerSignsIn(email, '198.51.100.30');
    for (let i = 0; i < 6; i++)
      expect(await outcome(startLogin({ email, password: `guess ${i} guess` }, from(strangerIp())))).toBe('invalid_credentials');
    // The pool for unknown browsers is full: even the right password from a new address waits…
    expect(await outcome(startLogin({ email, password: PASSWORD }, from(strangerIp())))).toBe('throttled');
    // …but the owner's own browser is counted apart and gets in, from any address.
    expect(await outcome(startLogin({ email, password: PASSWORD }, from('192.0.2.77', device)))).toBe('ok');
  });

  it("keeps the owner's trusted device and passkey in while strangers have filled the shared address's pool", async () => {
    configureRateLimits({ loginFailuresPerIp: { limit: 2, windowSeconds: 3600 } });
    const shared = strangerIp();
    const { email, user } = await makeUser();
    const device = await ownerSignsIn(email, shared);
    const authenticator = new SoftAuthenticator();
    const registration = await startPasskeyRegistration(user, { current_password: PASSWORD }, from(shared));
    await finishPasskeyRegistration(
      user,
      { challenge_id: registration.challenge_id, response: authenticator.register(registration.options, ORIGIN) },
      from(shared),
    );
    const someoneElse = await makeUser();
    for (let i = 0; i < 2; i++)
      expect(await outcome(startLogin({ email: someoneElse.email, password: `guess ${i} guess` }, from(shared)))).toBe(
        'invalid_credentials',
      );
    expect(await outcome(startLogin({ email, password: PASSWORD }, from(shared)))).toBe('throttled');
    expect(await outcome(startLogin({ email, password: PASSWORD }, from(shared, device)))).toBe('ok');
    const { challenge_id, options } = await startPasskeyLogin(from(shared));
    const passkey = finishPasskeyLogin({ challenge_id, response: authenticator.authenticate(options, ORIGIN) }, from(shared));
    expect(await outcome(passkey)).toBe('ok');
  });

  it('makes a completed password reset trust that browser', async () => {
    const { email } = await makeUser();
    const client = api.client();
    await client.post('/api/auth/password-reset/request', { email });
    const link = /(http\S+reset-password\?token=\S+)/.exec((await latestEmail(email, /Reset your password/)).text)![1];
    const token = decodeURIComponent(new URL(link).searchParams.get('token')!);
    const confirmed = await client.post('/api/auth/password-reset/confirm', {
      token,
      password: 'cobalt harbor lantern',
      password2: 'cobalt harbor lantern',
    });
    expect(confirmed.status).toBe(200);
    expect(client.cookie(DEVICE_COOKIE)).toBeTruthy();
  });

  it('ignores a device cookie of another account or a forged one', async () => {
    configureRateLimits({ loginFailuresPerAccount: { limit: 1, windowSeconds: 3600 } });
    const owner = await makeUser();
    const other = await makeUser();
    const otherDevice = await ownerSignsIn(other.email, '198.51.100.31');
    expect(await outcome(startLogin({ email: owner.email, password: 'nope nope nope' }, from(strangerIp())))).toBe('invalid_credentials');
    expect(await outcome(startLogin({ email: owner.email, password: PASSWORD }, from(strangerIp(), otherDevice)))).toBe('throttled');
    expect(
      await outcome(
        startLogin({ email: owner.email, password: PASSWORD }, from(strangerIp(), `${DEVICE_COOKIE}=eyJhbGciOiJIUzI1NiJ9.e30.x`)),
      ),
    ).toBe('throttled');
  });
});

describe('guessing stays bounded across all addresses', () => {
  it('keeps the default pools at 100 failures an hour per account in all', async () => {
    configureRateLimits();
    const { rateLimits } = await import('../../functions/accounts/rate-limit');
    expect(rateLimits.loginFailuresPerAccount.limit + rateLimits.loginFailuresPerAccountTrusted.limit).toBeLessThanOrEqual(100);
    expect(rateLimits.loginFailuresPerAccount.windowSeconds).toBe(3600);
    expect(rateLimits.loginFailuresPerAccountTrusted.windowSeconds).toBe(3600);
  });

  it('checks no more passwords than the pools hold, whatever the addresses and devices', async () => {
    configureRateLimits({
      loginFailuresPerAccount: { limit: 4, windowSeconds: 3600 },
      loginFailuresPerAccountTrusted: { limit: 2, windowSeconds: 3600 },
    });
    const { email } = await makeUser();
    const device = await ownerSignsIn(email, '198.51.100.40');
    const results: string[] = [];
    for (let i = 0; i < 12; i++) results.push(await outcome(startLogin({ email, password: `guess ${i} guess` }, from(strangerIp()))));
    for (let i = 0; i < 4; i++)
      results.push(await outcome(startLogin({ email, password: `guess ${i} again` }, from(strangerIp(), device))));
    expect(results.filter((r) => r === 'invalid_credentials').length).toBe(6);
    expect(results.filter((r) => r === 'throttled').length).toBe(10);
  });
});

describe('each attempt is reserved before the password is checked', () => {
  it('lets no more parallel guesses through than the account pool holds', async () => {
    configureRateLimits({ loginFailuresPerAccount: { limit: 5, windowSeconds: 3600 } });
    const { email } = await makeUser();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => outcome(startLogin({ email, password: `parallel ${i} guess` }, from(strangerIp())))),
    );
    expect(results.filter((r) => r === 'invalid_credentials').length).toBe(5);
    expect(results.filter((r) => r === 'throttled').length).toBe(15);
  });

  it('lets no more parallel guesses from one address through than its backoff allows', async () => {
    const { email } = await makeUser();
    const ip = strangerIp();
    // as the auth function: a guess that loses the race re-reads the back-off under its role
    const results = await runAs('auth', () =>
      Promise.all(Array.from({ length: 12 }, (_, i) => outcome(startLogin({ email, password: `same ${i} source` }, from(ip))))),
    );
    expect(results.filter((r) => r === 'invalid_credentials').length).toBeLessThanOrEqual(5);
    const state = (await db().send(new GetCommand({ TableName: tableName(), Key: keys.loginBackoff(email, `ip:${ip}`) }))).Item!;
    expect(state.failures).toBe(results.filter((r) => r === 'invalid_credentials').length);
  });

  it('gives the reservation back when the password is right', async () => {
    configureRateLimits({ loginFailuresPerAccount: { limit: 2, windowSeconds: 3600 } });
    const { email } = await makeUser();
    for (let i = 0; i < 5; i++) expect(await outcome(startLogin({ email, password: PASSWORD }, from(strangerIp())))).toBe('ok');
    expect(await outcome(startLogin({ email, password: 'wrong wrong wrong' }, from(strangerIp())))).toBe('invalid_credentials');
  });
});

describe('security events in the audit log', () => {
  it('records refused sign-ins of locked and unverified accounts, the start of a backoff and the throttled answer', async () => {
    const locked = await makeUser({ status: 'locked' });
    const unverified = await makeUser({ verified: false });
    expect(await outcome(startLogin({ email: locked.email, password: PASSWORD }, from(strangerIp())))).toBe('account_locked');
    expect(await outcome(startLogin({ email: unverified.email, password: PASSWORD }, from(strangerIp())))).toBe('email_not_verified');
    expect((await auditOf(`user#${locked.user.id}`)).map((e) => [e.action, e.new_values?.reason])).toContainEqual([
      'auth.login_refused',
      'account_locked',
    ]);
    expect((await auditOf(`user#${unverified.user.id}`)).map((e) => [e.action, e.new_values?.reason])).toContainEqual([
      'auth.login_refused',
      'email_not_verified',
    ]);

    const { email, user } = await makeUser();
    const ip = strangerIp();
    // the back-off's first wait is 1 s: on a stopped clock the 6th and 7th guesses come within it however slow the run
    await withStoppedClock(async () => {
      for (let i = 0; i < 5; i++) await outcome(startLogin({ email, password: `guess ${i} guess` }, from(ip)));
      expect(await outcome(startLogin({ email, password: 'guess 6 guess' }, from(ip)))).toBe('throttled');
      expect(await outcome(startLogin({ email, password: 'guess 7 guess' }, from(ip)))).toBe('throttled');
    });
    const actions = (await auditOf(`user#${user.id}`)).map((e) => e.action);
    expect(actions.filter((a) => a === 'auth.login_backoff_started')).toHaveLength(1);
    // audited once per hour and email; the second refusal is only counted
    expect(actions.filter((a) => a === 'auth.login_throttled')).toHaveLength(1);
  });

  it('records a rate limit the first time its window refuses, once per window', async () => {
    configureRateLimits({ resetRequestsPerEmail: { limit: 1, windowSeconds: 3600 } });
    const email = newEmail();
    const client = api.client({ userAgent: 'throttle-agent' });
    await client.post('/api/auth/password-reset/request', { email });
    expect((await client.post('/api/auth/password-reset/request', { email })).status).toBe(429);
    expect((await client.post('/api/auth/password-reset/request', { email })).status).toBe(429);
    const entries = (await auditOf('rate_limit#resetRequestsPerEmail')).filter((e) => e.user_agent === 'throttle-agent');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'security.throttled', ip: '127.0.0.1' });
    expect(JSON.stringify(entries[0])).not.toContain(email);
  });

  it("records a refused verification-code resend with the caller's address and browser, on each path that resends", async () => {
    const email = newEmail();
    const agent = `resend-agent-${randomUUID().slice(0, 8)}`;
    const client = api.client({ userAgent: agent });
    const register = () =>
      client.post('/api/auth/register', { first_name: 'Ada', last_name: 'Byron', email, password: PASSWORD, passwordConfirm: PASSWORD });
    const throttledEntries = async () => (await auditOf('rate_limit#codeResendPerMinute')).filter((entry) => entry.user_agent === agent);
    // the first code counts against the one-a-minute resend limit
    expect((await register()).status).toBe(201);
    // a repeated registration within the minute: no new code, the refusal audited with IP and agent
    await register();
    expect(await throttledEntries()).toEqual([expect.objectContaining({ action: 'security.throttled', ip: '127.0.0.1' })]);
    // "Send a new code" in the same window: the same limit, already in the log for this window
    configureRateLimits({ codeResendPerHour: { limit: 0, windowSeconds: 3600 }, codeResendPerMinute: { limit: 100, windowSeconds: 60 } });
    expect((await client.post('/api/auth/resend-verification', { email })).status).toBe(202);
    const hourly = (await auditOf('rate_limit#codeResendPerHour')).filter((entry) => entry.user_agent === agent);
    expect(hourly).toEqual([expect.objectContaining({ action: 'security.throttled', ip: '127.0.0.1' })]);
  });

  it('records wrong and expired sign-in codes against the account', async () => {
    const { email, user } = await makeUser();
    const client = api.client();
    const step1 = await client.post('/api/auth/login', { email, password: PASSWORD });
    const code = codeIn(await latestEmail(email, /login code/i));
    await client.post('/api/auth/verify-2fa', {
      email,
      code: code === '000000' ? '111111' : '000000',
      challenge_id: step1.body.challenge_id,
    });
    const failures = (await auditOf(`user#${user.id}`)).filter((e) => e.action === 'auth.2fa_failed');
    expect(failures.map((e) => e.new_values?.reason)).toEqual(['wrong']);
  });

  it('records a wrong current password, a bad reset token and a learner at an admin route', async () => {
    const { user } = await makeUser();
    const learner = api.client();
    await signIn(learner, user);
    expect(
      (
        await learner.post('/api/settings/password', {
          current_password: 'not my password',
          new_password: 'cobalt harbor lantern',
          confirm_new_password: 'cobalt harbor lantern',
        })
      ).status,
    ).toBe(400);
    expect((await auditOf(`user#${user.id}`)).map((e) => e.action)).toContain('auth.password_change_failed');

    expect((await learner.get('/api/admin/summary')).status).toBe(403);
    expect((await learner.get('/api/admin/summary')).status).toBe(403);
    const refusals = await auditOf('route#GET /api/admin/summary');
    // audited once per hour and account; the second refusal is only counted
    expect(refusals.filter((e) => e.action === 'security.admin_required' && e.actor_user_id === user.id)).toHaveLength(1);

    const ua = `bad-token-${randomUUID()}`;
    expect((await api.client({ userAgent: ua }).get('/api/auth/password-reset/validate?token=made-up')).status).toBe(400);
    const rejected = (await auditOf('user#unknown')).filter((e) => e.user_agent === ua);
    expect(rejected.map((e) => e.action)).toEqual(['auth.password_reset_token_rejected']);
  });
});

describe('a reset link dies when the password or the email changes', () => {
  async function requestLink(email: string): Promise<string> {
    await api.client().post('/api/auth/password-reset/request', { email });
    const link = /(http\S+reset-password\?token=\S+)/.exec((await latestEmail(email, /Reset your password/)).text)![1];
    return decodeURIComponent(new URL(link).searchParams.get('token')!);
  }
  const validate = (token: string) => api.client().get(`/api/auth/password-reset/validate?token=${encodeURIComponent(token)}`);

  it('after a password change', async () => {
    const { email, user } = await makeUser();
    const token = await requestLink(email);
    expect((await validate(token)).status).toBe(200);
    const learner = api.client();
    await signIn(learner, user);
    expect(
      (
        await learner.post('/api/settings/password', {
          current_password: PASSWORD,
          new_password: 'cobalt harbor lantern',
          confirm_new_password: 'cobalt harbor lantern',
        })
      ).status,
    ).toBe(200);
    expect((await validate(token)).body).toEqual({ error: 'invalid_or_expired' });
    const confirm = await api
      .client()
      .post('/api/auth/password-reset/confirm', { token, password: 'saffron river piano', password2: 'saffron river piano' });
    expect(confirm.body).toEqual({ error: 'invalid_or_expired' });
  });

  it('after another reset (every other live link dies)', async () => {
    const { email } = await makeUser();
    const first = await requestLink(email);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await requestLink(email);
    expect(
      (
        await api
          .client()
          .post('/api/auth/password-reset/confirm', { token: second, password: 'saffron river piano', password2: 'saffron river piano' })
      ).status,
    ).toBe(200);
    expect((await validate(first)).body).toEqual({ error: 'invalid_or_expired' });
  });

  it('after an admin changes the email', async () => {
    const { email, user } = await makeUser();
    const token = await requestLink(email);
    const admin = await createTestUser({ role: 'admin' });
    const adminClient = api.client();
    await signIn(adminClient, admin);
    expect((await adminClient.patch(`/api/admin/users/${user.id}`, { email: newEmail() })).status).toBe(200);
    expect((await validate(token)).body).toEqual({ error: 'invalid_or_expired' });
  });
});

describe('privacy of the audit log', () => {
  it('stores what was typed as an email on a failed sign-in only as a keyed hash', async () => {
    const typed = `typo-${randomUUID().slice(0, 6)}@example.com`;
    const ua = `hash-${randomUUID()}`;
    expect(await outcome(startLogin({ email: typed, password: 'some guess here' }, { ip: strangerIp(), userAgent: ua }))).toBe(
      'invalid_credentials',
    );
    const [entry] = (await auditOf('user#unknown')).filter((e) => e.user_agent === ua);
    expect(entry.action).toBe('auth.login_failed');
    expect(JSON.stringify(entry)).not.toContain(typed);
    expect(entry.new_values?.email_hash).toMatch(/^hmac:[\w-]{22}$/);
    // the same text gives the same hash (repeated tries of one address show as such)
    const ua2 = `hash-${randomUUID()}`;
    await outcome(startLogin({ email: typed.toUpperCase(), password: 'other guess here' }, { ip: strangerIp(), userAgent: ua2 }));
    const [again] = (await auditOf('user#unknown')).filter((e) => e.user_agent === ua2);
    expect(again.new_values?.email_hash).toBe(entry.new_values?.email_hash);
  });

  it('gives every audit entry a TTL of the retention (default 400 days)', async () => {
    const { user } = await makeUser();
    await outcome(startLogin({ email: user.email, password: 'wrong guess here' }, from(strangerIp())));
    const [entry] = await auditOf(`user#${user.id}`);
    const days = (entry.expires_at - Math.floor(Date.now() / 1000)) / 86400;
    expect(days).toBeGreaterThan(399.9);
    expect(days).toBeLessThanOrEqual(400);
  });
});

describe('registering an address that is not verified yet', () => {
  const form = (email: string, first: string, last: string, password: string) => ({
    first_name: first,
    last_name: last,
    email,
    password,
    passwordConfirm: password,
  });

  it('lets whoever verifies the address sign in with the password they chose, under their names', async () => {
    configureRateLimits({ codeResendPerMinute: { limit: 100, windowSeconds: 60 } });
    const email = newEmail();
    const squatter = await api.client().post('/api/auth/register', form(email, 'Mallory', 'Squatter', 'squatter chosen words'));
    expect(squatter.status).toBe(201);
    const squatterCode = codeIn(await latestEmail(email, /Verify/));
    const again = await api.client().post('/api/auth/register', form(email, 'Alice', 'Owner', 'owner chosen words'));
    expect(again.body).toEqual({ error: 'verification_pending' });
    const emails = await (await import('../helpers/api')).emailsTo(email);
    expect(emails).toHaveLength(2);
    // (the store's timestamps are coarse: the owner's code is the one that is not the squatter's)
    const code = emails.map(codeIn).find((c) => c !== squatterCode)!;
    expect(code).toBeDefined();
    expect((await api.client().post('/api/auth/verify-email', { email, code: squatterCode })).body).toEqual({ error: 'invalid_code' });
    expect((await api.client().post('/api/auth/verify-email', { email, code })).status).toBe(200);

    expect(await outcome(startLogin({ email, password: 'owner chosen words' }, from(strangerIp())))).toBe('ok');
    expect(await outcome(startLogin({ email, password: 'squatter chosen words' }, from(strangerIp())))).toBe('invalid_credentials');
    const { getUserByEmail, searchItems } = await import('../../functions/lib/users');
    const user = (await getUserByEmail(email))!;
    expect([user.first_name, user.last_name, user.verified]).toEqual(['Alice', 'Owner', true]);
    // the admin search follows: the old names are gone, the new ones are there
    for (const item of searchItems(user))
      expect((await db().send(new GetCommand({ TableName: tableName(), Key: { pk: item.pk, sk: item.sk } }))).Item).toBeDefined();
    for (const item of searchItems({ ...user, first_name: 'Mallory', last_name: 'Squatter' }).filter((i) => i.field !== 'email')) {
      expect((await db().send(new GetCommand({ TableName: tableName(), Key: { pk: item.pk, sk: item.sk } }))).Item).toBeUndefined();
    }
  });

  it('keeps an earlier code working with its own registration when no new code could be sent', async () => {
    const email = newEmail();
    await api.client().post('/api/auth/register', form(email, 'Grace', 'Hopper', 'first chosen words'));
    const code = codeIn(await latestEmail(email, /Verify/));
    // within the minute: no new code, so nothing of this second registration is kept
    expect((await api.client().post('/api/auth/register', form(email, 'Other', 'Person', 'second chosen words'))).body).toEqual({
      error: 'verification_pending',
    });
    expect((await api.client().post('/api/auth/verify-email', { email, code })).status).toBe(200);
    expect(await outcome(startLogin({ email, password: 'first chosen words' }, from(strangerIp())))).toBe('ok');
  });

  it('sends verification emails without any name the registrant typed (docs/security.md#registration-of-an-unverified-address-and-what-mail-carries)', async () => {
    const email = newEmail();
    await api.client().post('/api/auth/register', form(email, 'Visit evil.example', 'Now', 'plain chosen words'));
    const mail = await latestEmail(email, /Verify/);
    expect(mail.text).not.toContain('evil.example');
    expect(mail.html).not.toContain('evil.example');
    expect(mail.text.startsWith('Hello,')).toBe(true);
  });
});

describe('registration tells whether an address is registered, at a bounded rate (docs/security.md#registration-tells-whether-an-address-is-registered)', () => {
  const probe = (email: string, ip: string) =>
    outcome(
      runAs('auth', () =>
        register({ first_name: 'Eve', last_name: 'Prober', email, password: PASSWORD, passwordConfirm: PASSWORD }, from(ip)),
      ),
    );

  it('limits the answers about registered addresses per client address, and the refusal tells nothing', async () => {
    configureRateLimits({ registeredAnswersPerIp: { limit: 3, windowSeconds: 3600 } });
    const registered = await Promise.all(Array.from({ length: 4 }, () => makeUser()));
    const unverified = await makeUser({ verified: false });
    const prober = strangerIp();
    // the product's answers: registered, and registered but not verified yet
    expect(await probe(registered[0].email, prober)).toBe('already_registered');
    expect(await probe(unverified.email, prober)).toBe('verification_pending');
    expect(await probe(registered[1].email, prober)).toBe('already_registered');
    // the 4th answer about a registered address from that address is refused…
    expect(await probe(registered[2].email, prober)).toBe('throttled');
    // …and so is any registration from it this hour, so the refusal says nothing about the address
    const fresh = newEmail();
    expect(await probe(fresh, prober)).toBe('throttled');
    const { getUserByEmail } = await import('../../functions/lib/users');
    expect(await getUserByEmail(fresh)).toBeUndefined();
    const refusals = (await auditOf('rate_limit#registeredAnswersPerIp')).filter((entry) => entry.action === 'security.throttled');
    expect(refusals).toHaveLength(1);

    // another address still registers, and is still told about a registered one
    const other = strangerIp();
    expect(await probe(fresh, other)).toBe('ok');
    expect(await probe(registered[3].email, other)).toBe('already_registered');
  });

  it('counts an IPv6 client by its /56, as the other registration limit', async () => {
    configureRateLimits({ registeredAnswersPerIp: { limit: 2, windowSeconds: 3600 } });
    const registered = await Promise.all(Array.from({ length: 3 }, () => makeUser()));
    // two /64s of one /56: one allowance
    expect(await probe(registered[0].email, '2001:db8:77:1100::1')).toBe('already_registered');
    expect(await probe(registered[1].email, '2001:db8:77:11ff::2')).toBe('already_registered');
    expect(await probe(registered[2].email, '2001:db8:77:1142::3')).toBe('throttled');
    // the next /56
    expect(await probe(registered[2].email, '2001:db8:77:1200::1')).toBe('already_registered');
    expect(await probe(newEmail(), '2001:db8:77:1200::1')).toBe('ok');
  });
});
