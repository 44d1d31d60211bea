import { randomUUID } from 'node:crypto';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { afterEach, describe, expect, it } from 'vitest';
import { drainDeferredNotices } from '../../functions/accounts/deferred-notices';
import { hashPassword } from '../../functions/accounts/passwords';
import { configureRateLimits } from '../../functions/accounts/rate-limit';
import { nowMs, setClockSource } from '../../functions/lib/clock';
import { forgetSesAccount } from '../../functions/lib/ses-account';
import { resetConfigForTests } from '../../functions/lib/config';
import { SESSION_COOKIE, startSession } from '../../functions/lib/session';
import type { UserRecord } from '../../functions/lib/user-record';
import { insertUser } from '../../functions/lib/users';
import { runAs } from '../../infra/local/iam/twin';
import { codeIn, emailsTo, latestEmail, useApi, type ApiClient } from '../helpers/api';
import { sendMailThrough, useSesAccount, type SesAccount } from '../helpers/ses';
import { SoftAuthenticator } from '../helpers/soft-authenticator';
import { createTestUser, signIn } from '../helpers/users';

/**
 * The outbound mail budget (docs/security.md#outbound-mail-budget): shares of the SES account's
 * own quota and send rate (GetAccount), open mail yielding to reserved mail, and security notices
 * that wait instead of being dropped. Each test mails through an SES account of this file with
 * the limits it needs (test/helpers/ses.ts); the file has its own table.
 */
const api = useApi();
const PASSWORD = 'copper meadow falcon';
const ORIGIN = 'http://localhost:3000';
/** Fast enough that only the quota, or the shares under test, refuse. */
const RATE = 1000;

afterEach(() => {
  configureRateLimits();
  setClockSource();
  delete process.env.BULK_SEND_SHARE;
  delete process.env.MAIL_RESERVED_SHARE;
  resetConfigForTests();
});

const newEmail = () => `budget-${randomUUID().slice(0, 8)}@example.com`;
const makeUser = async () =>
  insertUser({ email: newEmail(), first_name: 'Ada', last_name: 'Lovelace', password_hash: await hashPassword(PASSWORD), verified: true });
const registration = (email: string) => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  email,
  password: PASSWORD,
  passwordConfirm: PASSWORD,
});
const mailsTo = async (email: string, account: SesAccount, subject: RegExp) =>
  (await emailsTo(email, account.endpoint)).filter((mail) => subject.test(mail.subject));
const drain = () => runAs('reminders', () => drainDeferredNotices());

/** A client signed in as `user` (a session, as a completed sign-in gives). */
async function sessionOf(user: UserRecord): Promise<ApiClient> {
  const client = api.client({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' });
  const { cookie } = await startSession(user, { ip: '203.0.113.9', userAgent: 'test' });
  client.setCookie(SESSION_COOKIE, cookie.split(';')[0].slice(SESSION_COOKIE.length + 1));
  return client;
}

/** Password and the mailed code: the status of the code step (200: signed in). */
async function signInWithCode(client: ApiClient, email: string, account: SesAccount): Promise<number> {
  const step1 = await client.post('/api/auth/login', { email, password: PASSWORD });
  expect(step1.status).toBe(200);
  const code = codeIn(await latestEmail(email, /login code/i, account.endpoint));
  return (await client.post('/api/auth/verify-2fa', { email, code, challenge_id: step1.body.challenge_id })).status;
}

async function addPasskey(client: ApiClient): Promise<void> {
  const options = await client.post<{ challenge_id: string; options: PublicKeyCredentialCreationOptionsJSON }>(
    '/api/auth/passkeys/registration/options',
    { current_password: PASSWORD },
  );
  expect(options.status).toBe(200);
  const response = new SoftAuthenticator().register(options.body.options, ORIGIN);
  const verified = await client.post('/api/auth/passkeys/registration/verify', {
    challenge_id: options.body.challenge_id,
    name: 'Phone',
    response,
  });
  expect(verified.status).toBe(201);
}

describe('the open share of the quota', () => {
  const account = useSesAccount({ maxSendRate: RATE, max24HourSend: 100 });

  it('refuses verification codes with 503 email_unavailable once 80 % of the quota is used, while a verified learner still gets a sign-in code', async () => {
    sendMailThrough(account);
    await account.spend(79);
    const first = newEmail();
    expect((await api.client().post('/api/auth/register', registration(first))).status).toBe(201);
    // 80 of 100 sent (GetAccount, plus what this process sent since): the rest is the reserved share
    const refused = await api.client().post('/api/auth/register', registration(newEmail()));
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ error: 'email_unavailable' });
    expect(refused.headers.get('retry-after')).toBe('60');

    const learner = await makeUser();
    expect(await signInWithCode(api.client(), learner.email, account)).toBe(200);
    expect(await account.sentLast24Hours()).toBe(81);
  });
});

describe("a code beyond its account's daily allowance", () => {
  const account = useSesAccount({ maxSendRate: RATE, max24HourSend: 100 });

  it('is open mail: it goes out while the quota has room, and yields once it is near', async () => {
    sendMailThrough(account);
    configureRateLimits({ reservedSignInCodesPerAccount: { limit: 1, windowSeconds: 86_400 } });
    const learner = await makeUser();
    // the day's first code: reserved; the second: open, and the quota has room
    expect(await signInWithCode(api.client(), learner.email, account)).toBe(200);
    expect(await signInWithCode(api.client(), learner.email, account)).toBe(200);
    await account.spend(80);
    // sent by others (another container): this process reads the account again at once instead of within minutes
    sendMailThrough(account);
    const third = await api.client().post('/api/auth/login', { email: learner.email, password: PASSWORD });
    expect(third.status).toBe(503);
    expect(third.body).toEqual({ error: 'email_unavailable' });
    // another learner's first code of the day is reserved: it goes
    expect(await signInWithCode(api.client(), (await makeUser()).email, account)).toBe(200);
  });
});

describe('the open share of the send rate', () => {
  const account = useSesAccount({ maxSendRate: 5, max24HourSend: 50_000 });

  it("refuses open mail beyond its share of the minute (Retry-After: the minute's end); reserved mail keeps its share", async () => {
    sendMailThrough(account);
    // bulk 79 %, reserved 20 %: open mail may take 1 % of 5 mails a second, 3 a minute
    Object.assign(process.env, { BULK_SEND_SHARE: '79', MAIL_RESERVED_SHARE: '20' });
    resetConfigForTests();
    // a minute of its own (this file's other tests mailed in the current one), ten seconds in
    const minute = Math.floor(nowMs() / 60_000) * 60_000 + 10 * 60_000;
    setClockSource(() => minute + 10_000);
    for (let i = 0; i < 3; i++) expect((await api.client().post('/api/auth/register', registration(newEmail()))).status).toBe(201);
    const refused = await api.client().post('/api/auth/register', registration(newEmail()));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('50');
    expect(await signInWithCode(api.client(), (await makeUser()).email, account)).toBe(200);
    // the next minute has room again
    setClockSource(() => minute + 60_000);
    expect((await api.client().post('/api/auth/register', registration(newEmail()))).status).toBe(201);
  });
});

describe('security notices', () => {
  const account = useSesAccount({ maxSendRate: RATE, max24HourSend: 50_000 });

  it("beyond the account's notices of the hour: the change succeeds, its notice waits and the hourly job sends it the next hour", async () => {
    sendMailThrough(account);
    configureRateLimits({ securityNoticesPerAccount: { limit: 2, windowSeconds: 3600 } });
    const user = await makeUser();
    const client = await sessionOf(user);
    const passwords = [PASSWORD, 'first new passphrase 11', 'second new passphrase 22', 'third new passphrase 33'];
    for (let i = 1; i < passwords.length; i++) {
      const changed = await client.post('/api/settings/password', {
        current_password: passwords[i - 1],
        new_password: passwords[i],
        confirm_new_password: passwords[i],
      });
      expect(changed.status).toBe(200);
    }
    const notices = () => mailsTo(user.email, account, /password was changed/);
    expect(await notices()).toHaveLength(2);
    // the hour is still full: it waits
    expect(await drain()).toEqual({ sent: 0, waiting: 1, dropped: 0 });
    const hour = Math.floor(nowMs() / 3_600_000) * 3_600_000;
    setClockSource(() => hour + 3_600_000 + 60_000);
    expect(await drain()).toEqual({ sent: 1, waiting: 0, dropped: 0 });
    expect(await notices()).toHaveLength(3);
    expect(await drain()).toEqual({ sent: 0, waiting: 0, dropped: 0 });
  });
});

describe('every function that mails a notice', () => {
  const near = useSesAccount({ maxSendRate: RATE, max24HourSend: 20 });
  const nextDay = useSesAccount({ maxSendRate: RATE, max24HourSend: 50_000 });

  it('keeps it when it cannot go out now (the open share used up), and the hourly job delivers it, when the quota allows, with what happened when', async () => {
    sendMailThrough(near);
    await near.spend(16);
    // every notice is open mail here: no daily allowance
    configureRateLimits({ reservedNoticesPerAccount: { limit: 0, windowSeconds: 86_400 } });
    const learner = await makeUser();
    const client = await sessionOf(learner);
    // passkeys: a passkey added
    await addPasskey(client);
    // learner: a password changed. In the cloud each function's containers read GetAccount
    // themselves; in this process the functions share one read, so it is forgotten here for the
    // learner function's own (its grant is checked too)
    forgetSesAccount();
    const newPassword = 'a brand new passphrase 44';
    const changed = await client.post('/api/settings/password', {
      current_password: PASSWORD,
      new_password: newPassword,
      confirm_new_password: newPassword,
    });
    expect(changed.status).toBe(200);
    // auth: a password reset (its link is reserved mail: it goes)
    expect((await api.client().post('/api/auth/password-reset/request', { email: learner.email })).status).toBe(200);
    const link = (await latestEmail(learner.email, /Reset your password/, near.endpoint)).text.match(/token=([\w%-]+)/)![1];
    const reset = await api.client().post('/api/auth/password-reset/confirm', {
      token: decodeURIComponent(link),
      password: 'the reset passphrase 55',
      password2: 'the reset passphrase 55',
    });
    expect(reset.status).toBe(200);
    // admin: the address changed (a notice to the old address and one to the new)
    const admin = await createTestUser({ role: 'admin' });
    const adminClient = api.client();
    await signIn(adminClient, admin);
    const newAddress = newEmail();
    expect((await adminClient.patch(`/api/admin/users/${learner.id}`, { email: newAddress })).status).toBe(200);

    const subjects = async (address: string, endpoint: string) => (await emailsTo(address, endpoint)).map((mail) => mail.subject);
    expect(await subjects(learner.email, near.endpoint)).toEqual(['Reset your password']);
    // the open share stays used up: they all wait
    expect(await drain()).toEqual({ sent: 0, waiting: 5, dropped: 0 });

    // the next day, the quota has room
    sendMailThrough(nextDay);
    expect(await drain()).toEqual({ sent: 5, waiting: 0, dropped: 0 });
    // (the local SES accounts share one mail viewer: the reset link is listed again)
    expect((await subjects(learner.email, nextDay.endpoint)).sort()).toEqual([
      'A passkey was added to your account',
      'Reset your password',
      'Your account email address was changed',
      'Your password was changed',
      'Your password was reset',
    ]);
    expect(await subjects(newAddress, nextDay.endpoint)).toEqual(['Your account email address was changed']);
    const passkeyNotice = await latestEmail(learner.email, /passkey was added/, nextDay.endpoint);
    // the removal link is signed when the notice goes out; it still names the passkey
    expect(passkeyNotice.text).toMatch(/\/passkey-removal\?token=[\w.%-]+/);
    expect(passkeyNotice.text).toContain('Device: Firefox on Linux');
  });
});
