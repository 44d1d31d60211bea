import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it, onTestFinished, vi, type MockInstance } from 'vitest';
import { hashPassword } from '../../functions/accounts/passwords';
import { db, tableName } from '../../functions/lib/db';
import { logger } from '../../functions/lib/logger';
import { keys } from '../../functions/lib/table';
import { dayOf } from '../../functions/lib/activity';
import { getUserByEmail, insertUser } from '../../functions/lib/users';
import { runReminders } from '../../functions/program/reminders';
import { drainDeferredNotices } from '../../functions/accounts/deferred-notices';
import { runAs } from '../../infra/local/iam/twin';
import { DEFAULT_SES_LIMITS } from '../../infra/local/ses-limits';
import { codeIn, emailsTo, latestEmail, useApi, type ApiClient } from '../helpers/api';
import { sendMailThrough, useSesAccount, type SesAccount } from '../helpers/ses';
import { signIn } from '../helpers/users';
import { auditItemsOf } from './program-helpers';
import { UTC_LEARNERS_HOUR } from '../helpers/due-learners';

/**
 * Every mail path against an SES that refuses: the account's send rate spent (SES v2
 * TooManyRequestsException, which the SDK retries) or its 24-hour quota spent
 * (LimitExceededException, which cannot clear within a request and is not retried). What the
 * learner gets back, what was written, what is audited and logged, and that the learner gets on
 * once SES sends again. The accounts are this file's own (test/helpers/ses.ts).
 */
const api = useApi();
const healthy = useSesAccount(DEFAULT_SES_LIMITS);
/** One mail every ~17 minutes, and that one already sent: every send of this file is refused. */
const rateSpent = useSesAccount({ maxSendRate: 0.001, max24HourSend: 50_000 });
const quotaSpent = useSesAccount({ maxSendRate: 14, max24HourSend: 1 });
beforeAll(async () => {
  await rateSpent.spend(1);
  await quotaSpent.spend(1);
});

const PASSWORD = 'a quiet harbour at dusk';
const DAY = 24 * 3600 * 1000;

let errorLog: MockInstance<typeof logger.error>;
beforeAll(() => {
  errorLog = vi.spyOn(logger, 'error');
});
afterEach(() => errorLog.mockClear());
/** The attributes of every error line logged with `message` since the test began. */
const logged = (message: string) =>
  errorLog.mock.calls.filter(([line]) => line === message).map(([, attributes]) => attributes as Record<string, unknown>);

const newEmail = () => `ses-${randomUUID().slice(0, 8)}@example.com`;
const mailsTo = async (address: string) => (await emailsTo(address, healthy.endpoint)).length;
const codeTo = async (address: string, subject: RegExp) => codeIn(await latestEmail(address, subject, healthy.endpoint));

async function learner(verified = true) {
  const email = newEmail();
  const user = await insertUser({ email, first_name: 'Ada', last_name: 'Byron', password_hash: await hashPassword(PASSWORD), verified });
  return { email, user };
}

async function signedIn(): Promise<{ email: string; client: ApiClient; id: string }> {
  const { email, user } = await learner();
  const client = api.client();
  await signIn(client, user);
  return { email, client, id: user.id };
}

/** A learner past the password step (its code mailed through the healthy account). */
async function atCodeStep() {
  const { email } = await learner();
  sendMailThrough(healthy);
  const client = api.client();
  const step1 = await client.post('/api/auth/login', { email, password: PASSWORD });
  expect(step1.status).toBe(200);
  return { email, client, challenge: step1.body.challenge_id as string, firstCode: await codeTo(email, /login code/i) };
}

const registration = (email: string) => ({
  first_name: 'Ada',
  last_name: 'Byron',
  email,
  password: PASSWORD,
  passwordConfirm: PASSWORD,
});

/**
 * 503 `email_unavailable`, to be asked again within a minute. The refusal is SES's (Retry-After
 * 60) or, for open mail sent a second time in the same minute of a spent account, the product's
 * own per-minute share (the rest of that minute, functions/accounts/mail-budget.ts): which one
 * answers depends on where in the minute the test runs.
 */
function expectEmailUnavailable(response: { status: number; body: unknown; headers: Headers }) {
  expect(response.status).toBe(503);
  expect(response.body).toEqual({ error: 'email_unavailable' });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`).toBe(true);
}

describe.each([
  ['the 24-hour quota is spent', quotaSpent, 'LimitExceededException', 1],
  ['the send rate is spent', rateSpent, 'TooManyRequestsException', 3],
] as Array<[string, SesAccount, string, number]>)('when %s', (_, refusing, refusal, attempts) => {
  it(`sign-in: the code mail fails with 503 email_unavailable after ${attempts} attempt(s); signing in again works once SES sends`, async () => {
    const { email } = await learner();
    sendMailThrough(refusing);
    expectEmailUnavailable(await api.client().post('/api/auth/login', { email, password: PASSWORD }));
    expect(logged('email send failed')).toEqual([{ error_name: refusal, attempts, subject: 'Your login code' }]);

    sendMailThrough(healthy);
    const client = api.client();
    const step1 = await client.post('/api/auth/login', { email, password: PASSWORD });
    expect(step1.status).toBe(200);
    const code = await codeTo(email, /login code/i);
    expect((await client.post('/api/auth/verify-2fa', { email, code, challenge_id: step1.body.challenge_id })).status).toBe(200);
  });

  it('registration: 503 email_unavailable leaves an unverified account; registering again sends a code at once, which verifies it', async () => {
    const email = newEmail();
    sendMailThrough(refusing);
    expectEmailUnavailable(await api.client().post('/api/auth/register', registration(email)));
    expect((await getUserByEmail(email))?.verified).toBe(false);
    expect((await auditItemsOf((await getUserByEmail(email))!.id)).map((entry) => entry.action)).toEqual(['auth.register']);

    sendMailThrough(healthy);
    const again = await api.client().post('/api/auth/register', registration(email));
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'verification_pending' });
    const code = await codeTo(email, /verify/i);
    expect((await api.client().post('/api/auth/verify-email', { email, code })).status).toBe(200);
  });

  it('"Send a new code" (verification): 503 email_unavailable, and asking again once SES sends delivers a code at once', async () => {
    const { email } = await learner(false);
    sendMailThrough(refusing);
    expectEmailUnavailable(await api.client().post('/api/auth/resend-verification', { email }));

    sendMailThrough(healthy);
    expect((await api.client().post('/api/auth/resend-verification', { email })).status).toBe(202);
    const code = await codeTo(email, /verify/i);
    expect((await api.client().post('/api/auth/verify-email', { email, code })).status).toBe(200);
  });

  it('"Send a new code" (sign-in): 503 email_unavailable keeps the first code working, and asking again works at once', async () => {
    const { email, client, challenge, firstCode } = await atCodeStep();
    sendMailThrough(refusing);
    expectEmailUnavailable(await client.post('/api/auth/resend-2fa', { email, challenge_id: challenge }));
    expect((await auditItemsOf((await getUserByEmail(email))!.id)).map((entry) => entry.action)).not.toContain('auth.login_code_resent');

    sendMailThrough(healthy);
    const resent = await client.post('/api/auth/resend-2fa', { email, challenge_id: challenge });
    expect(resent.status).toBe(200);
    expect(await mailsTo(email)).toBe(2);
    // the first code died with the successful resend; the new one signs in
    expect((await client.post('/api/auth/verify-2fa', { email, code: firstCode, challenge_id: challenge })).status).toBe(400);
    const code = await codeTo(email, /login code/i);
    expect((await client.post('/api/auth/verify-2fa', { email, code, challenge_id: resent.body.challenge_id })).status).toBe(200);
  });

  it('a failed "Send a new code" (sign-in) leaves the code already received valid', async () => {
    const { email, client, challenge, firstCode } = await atCodeStep();
    sendMailThrough(refusing);
    expectEmailUnavailable(await client.post('/api/auth/resend-2fa', { email, challenge_id: challenge }));
    expect((await client.post('/api/auth/verify-2fa', { email, code: firstCode, challenge_id: challenge })).status).toBe(200);
  });

  it('password reset request: answers { ok: true } as for any address; no link, no audit entry, the failure logged', async () => {
    const { email, user } = await learner();
    sendMailThrough(refusing);
    const response = await api.client().post('/api/auth/password-reset/request', { email });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true });
    expect(logged('email send failed')).toEqual([{ error_name: refusal, attempts, subject: 'Reset your password' }]);
    expect(logged('password reset email failed')).toHaveLength(1);
    expect((await auditItemsOf(user.id)).map((entry) => entry.action)).not.toContain('auth.password_reset_requested');
    expect(await emailsTo(email, healthy.endpoint)).toEqual([]);
  });

  it('security notice: a password change succeeds; the unsent notice waits, and the hourly job sends it once SES does', async () => {
    const { email, client } = await signedIn();
    sendMailThrough(refusing);
    const change = await client.post('/api/settings/password', {
      current_password: PASSWORD,
      new_password: `${PASSWORD} again`,
      confirm_new_password: `${PASSWORD} again`,
    });
    expect(change.status).toBe(200);
    expect(logged('security notice failed')).toEqual([]);
    expect(logged('email send failed')).toEqual([{ error_name: refusal, attempts, subject: 'Your password was changed' }]);
    expect(await runAs('reminders', () => drainDeferredNotices())).toMatchObject({ sent: 0, waiting: 1 });

    sendMailThrough(healthy);
    expect(await runAs('reminders', () => drainDeferredNotices())).toMatchObject({ sent: 1, waiting: 0, dropped: 0 });
    expect((await emailsTo(email, healthy.endpoint)).map((mail) => mail.subject)).toEqual(['Your password was changed']);
    expect((await api.client().post('/api/auth/login', { email, password: `${PASSWORD} again` })).status).toBe(200);
  });

  it('account deletion: the account is deleted as asked; the unsent confirmation is only logged', async () => {
    const { client, id } = await signedIn();
    sendMailThrough(refusing);
    const response = await client.post('/api/account/delete', { password: PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ok: true, status: 'deleted' });
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(id) }))).Item?.status).toBe('deleted');
    expect(logged('account deletion email failed')).toHaveLength(1);
  });
});

// A slice run queries every reminder shard of the day (hundreds of queries): seconds on a quiet
// machine, more on a loaded one.
describe('a reminder slice', { timeout: 120_000 }, () => {
  /** An enrolled learner, due a reminder every day after enrolling, until the test ends. */
  async function dueLearner() {
    const { email, client, id } = await signedIn();
    expect((await client.post('/api/enroll')).status).toBe(200);
    onTestFinished(async () => {
      expect((await client.post('/api/settings/notifications', { reminder_frequency: 'off' })).status).toBe(200);
    });
    return { email, id };
  }
  const marker = (userId: string, day: Date) =>
    db().send(new GetCommand({ TableName: tableName(), Key: keys.reminderSent(userId, dayOf(day)), ConsistentRead: true }));
  /** The job's waits (pacing, backoff), recorded instead of waited. */
  const recordedSleeps = () => {
    const sleeps: number[] = [];
    return { sleeps, sleep: (ms: number) => Promise.resolve(void sleeps.push(ms)) };
  };
  const remindersTo = async (address: string) =>
    (await emailsTo(address, healthy.endpoint)).filter((mail) => mail.subject.startsWith('Next up:')).length;

  it('sends nothing once the bulk share of the quota is spent (GetAccount), unfinished: the rerun sends once SES has room', async () => {
    const { email, id } = await dueLearner();
    const day = new Date(Date.now() + 5 * DAY);
    const { sleeps, sleep } = recordedSleeps();
    sendMailThrough(quotaSpent);
    // the slice fails as a whole (the worker's SQS message is redelivered later) and is not checkpointed
    expect(await runReminders({ now: day, hour: UTC_LEARNERS_HOUR, sleep })).toEqual({ considered: 0, sent: 0, skipped: 0, failed: 1 });
    expect(sleeps).toEqual([]); // no backoff: the quota does not come back within the run
    expect((await marker(id, day)).Item).toBeUndefined();
    // the quota kept for transactional mail is never touched: no send was even tried
    expect(await quotaSpent.sentLast24Hours()).toBe(1);
    expect(logged('reminder slice failed').map((line) => (line.error as Error).name)).toEqual(['BulkShareSpent']);

    sendMailThrough(healthy);
    expect(await runReminders({ now: day, hour: UTC_LEARNERS_HOUR, sleep })).toEqual({ considered: 1, sent: 1, skipped: 0, failed: 0 });
    expect(await remindersTo(email)).toBe(1);
  });

  it('retries a spent send rate with backoff, counts the learner failed with the marker released, and a later run that day sends', async () => {
    const { email, id } = await dueLearner();
    const day = new Date(Date.now() + 6 * DAY);
    const { sleeps, sleep } = recordedSleeps();
    sendMailThrough(rateSpent);
    expect(await runReminders({ now: day, hour: UTC_LEARNERS_HOUR, sleep, maxAttempts: 2 })).toEqual({
      considered: 1,
      sent: 0,
      skipped: 0,
      failed: 1,
    });
    // the paced wait before the slice's first send (one interval at the bulk share of this slow
    // account), then one backoff between the job's two attempts (each retried by the SDK too)
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBeGreaterThan(sleeps[1]);
    expect((await marker(id, day)).Item).toBeUndefined();
    expect(logged('reminder failed').map((line) => (line.error as Error).name)).toEqual(['TooManyRequestsException']);

    // the slice noted the learner: a later run of it the same day retries and sends, once
    sendMailThrough(healthy);
    expect(await runReminders({ now: day, hour: UTC_LEARNERS_HOUR, sleep })).toEqual({ considered: 1, sent: 1, skipped: 0, failed: 0 });
    expect(await runReminders({ now: day, hour: UTC_LEARNERS_HOUR, sleep })).toEqual({ considered: 0, sent: 0, skipped: 0, failed: 0 });
    expect(await remindersTo(email)).toBe(1);
  });
});

it('counts only accepted mail against an account: GetAccount still shows the one mail that spent it', async () => {
  expect(await quotaSpent.sentLast24Hours()).toBe(1);
  expect(await rateSpent.sentLast24Hours()).toBe(1);
});
