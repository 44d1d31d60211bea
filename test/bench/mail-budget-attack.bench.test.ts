import { randomUUID } from 'node:crypto';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainDeferredNotices } from '../../functions/accounts/deferred-notices';
import { completeSignIn, startLogin } from '../../functions/accounts/login';
import { requestPasswordReset } from '../../functions/accounts/password-reset';
import { hashPassword } from '../../functions/accounts/passwords';
import { configureRateLimits } from '../../functions/accounts/rate-limit';
import { register } from '../../functions/accounts/registration';
import { verifyEmail } from '../../functions/accounts/verification';
import { forEachBounded } from '../../functions/lib/bounded';
import { getUserByEmail, getUserById, insertUser } from '../../functions/lib/users';
import { runAs } from '../../infra/local/iam/twin';
import { codeIn, emailsTo, latestEmail, useApi } from '../helpers/api';
import { sendMailThrough, useSesAccount } from '../helpers/ses';
import { SoftAuthenticator } from '../helpers/soft-authenticator';

/**
 * One attacker with 500 accounts of their own against every mail budget
 * (docs/security.md#outbound-mail-budget): registrations (verification codes), sign-ins (codes),
 * passkey sign-ins from new browsers (security notices) and reset requests, from 25 address blocks (IPv6 /56s,
 * 20 accounts each: what the per-address registration limit lets through in an hour). With the
 * day's other mail the SES account's quota is 76 % used when the sign-ins start, so the attacker's
 * codes close the open share (80 %), and what the attacker asks for (1,000 codes, 1,000 notices,
 * 500 reset links) is more than the 2,400 mails the quota has left: without the budget the
 * attacker spends the quota, and nobody gets a code until it frees. A real verified learner then
 * signs in with the code and adds a passkey: the code and the passkey-added notice reach them,
 * and the attacker never spends the quota.
 *
 * Scaled to a 10,000-mail quota (a fifth of a new production account's 50,000) with the daily
 * allowances lowered (a sign-in code, a notice and a reset link per account, 10 reserved mails per
 * /56; production: 6, 5, 3 and 200) and the hourly challenges to 2, so 500 accounts stay enough
 * to threaten the quota: here the attacker can take at most 750 of the 2,000 reserved mails (250
 * codes and reset links by the /56s, 500 notices by the accounts), at full size at most 7,000 of
 * 10,000 (docs/security.md#outbound-mail-budget). The attacker calls the domain functions
 * directly, as the functions' IAM roles, with addresses of their own; the learner uses the API.
 */
const api = useApi();
const ACCOUNTS = 500;
const BLOCKS = 25;
const QUOTA = 10_000;
const PASSWORD = 'copper meadow falcon';
const ORIGIN = 'http://localhost:3000';
// fast enough that only the quota counts (the twin's rate bucket holds a second of it)
const account = useSesAccount({ maxSendRate: 100_000, max24HourSend: QUOTA });
const nextDay = useSesAccount({ maxSendRate: 100_000, max24HourSend: 50_000 });

const run = randomUUID().slice(0, 6);
const attackers = Array.from({ length: ACCOUNTS }, (_, i) => ({
  email: `atk-${run}-${i}@example.com`,
  // each /56 of the attacker holds 20 accounts, each on a /64 of its own
  caller: { ip: `2001:db8:${(0x100 + (i % BLOCKS)).toString(16)}:${Math.floor(i / BLOCKS).toString(16)}::1`, userAgent: 'script/1.0' },
}));

beforeAll(() => {
  sendMailThrough(account);
  configureRateLimits({
    loginChallengesPerAccount: { limit: 2, windowSeconds: 3600 },
    reservedSignInCodesPerAccount: { limit: 1, windowSeconds: 86_400 },
    reservedNoticesPerAccount: { limit: 1, windowSeconds: 86_400 },
    reservedResetLinksPerAccount: { limit: 1, windowSeconds: 86_400 },
    reservedMailsPerIp: { limit: 10, windowSeconds: 86_400 },
  });
});
afterAll(() => configureRateLimits());

/** Runs `step` for every attacker, 16 at once; counts the answers by outcome (ok, or the error code). */
async function everyAttacker(step: (attacker: (typeof attackers)[number], index: number) => Promise<unknown>) {
  const outcomes: Record<string, number> = {};
  await forEachBounded(
    attackers.map((attacker, index) => ({ attacker, index })),
    16,
    async ({ attacker, index }) => {
      const outcome = await step(attacker, index).then(
        () => 'ok',
        (error: unknown) => (error as { code?: string }).code ?? String(error),
      );
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    },
  );
  return outcomes;
}

describe('500 self-made accounts against every mail budget', { timeout: 600_000 }, () => {
  it('leave a verified learner their sign-in code and their passkey-added notice, and never spend the quota', async () => {
    // registrations: 500 verification codes, then the accounts verified with them
    expect(
      await everyAttacker(({ email, caller }) =>
        runAs('auth', () =>
          register({ first_name: 'Mal', last_name: 'Lory', email, password: PASSWORD, passwordConfirm: PASSWORD }, caller),
        ),
      ),
    ).toEqual({ ok: ACCOUNTS });
    const codes = new Map((await emailsTo(`atk-${run}-`, account.endpoint)).map((mail) => [mail.to, codeIn(mail)]));
    expect(
      await everyAttacker(({ email, caller }) => runAs('auth', () => verifyEmail({ email, code: codes.get(email)! }, caller))),
    ).toEqual({
      ok: ACCOUNTS,
    });

    // the day's other mail (reminders, learners' codes), sent by other containers: 76 % of the quota used
    await account.spend(QUOTA * 0.76 - ACCOUNTS);
    sendMailThrough(account);

    // sign-ins: two codes asked for each account (its hourly challenges, lowered)
    const signIns: Record<string, number> = {};
    for (let round = 0; round < 2; round++) {
      const outcomes = await everyAttacker(({ email, caller }) => runAs('auth', () => startLogin({ email, password: PASSWORD }, caller)));
      for (const [outcome, times] of Object.entries(outcomes)) signIns[outcome] = (signIns[outcome] ?? 0) + times;
    }
    // noticed sign-ins: passkey sign-ins (their end, once the assertion is verified), each from a
    // browser the account has not used: the first sign-in of an account is not noticed, the next
    // two are (1,000 new-sign-in notices)
    await everyAttacker(async ({ email, caller }) => {
      for (let i = 0; i < 3; i++) {
        const user = (await getUserByEmail(email))!;
        await runAs('passkeys', () => completeSignIn(user, caller, { method: 'passkey' }));
      }
    });
    // reset links asked for every account (the answer is the same whether or not one is sent)
    await everyAttacker(({ email, caller }) => runAs('auth', () => requestPasswordReset(email, caller)));

    // a real, verified learner signs in with the emailed code …
    const learner = await insertUser({
      email: `learner-${run}@example.com`,
      first_name: 'Ada',
      last_name: 'Lovelace',
      password_hash: await hashPassword(PASSWORD),
      verified: true,
    });
    const client = api.client({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' });
    const step1 = await client.post('/api/auth/login', { email: learner.email, password: PASSWORD });
    expect(step1.status).toBe(200);
    const code = codeIn(await latestEmail(learner.email, /login code/i, account.endpoint));
    expect((await client.post('/api/auth/verify-2fa', { email: learner.email, code, challenge_id: step1.body.challenge_id })).status).toBe(
      200,
    );

    // … adds a passkey, and is told of it (at once, or by the hourly job)
    const options = await client.post<{ challenge_id: string; options: PublicKeyCredentialCreationOptionsJSON }>(
      '/api/auth/passkeys/registration/options',
      { current_password: PASSWORD },
    );
    expect(options.status).toBe(200);
    const added = await client.post('/api/auth/passkeys/registration/verify', {
      challenge_id: options.body.challenge_id,
      name: 'Phone',
      response: new SoftAuthenticator().register(options.body.options, ORIGIN),
    });
    expect(added.status).toBe(201);
    const waiting = await runAs('reminders', () => drainDeferredNotices());
    const notice = await latestEmail(learner.email, /passkey was added/, account.endpoint);
    expect(notice.text).toMatch(/\/passkey-removal\?token=[\w.%-]+/);

    // the attacker got codes only until their allowances and the open share were used up …
    expect(signIns.ok).toBeLessThan(2 * ACCOUNTS);
    expect(signIns.email_unavailable).toBeGreaterThan(0);
    // … and the quota was never spent: SES still sends to everyone
    expect(await account.sentLast24Hours()).toBeLessThan(QUOTA);

    // notices beyond the attacker accounts' allowance waited instead of being dropped; the next day they go out
    expect(waiting).toMatchObject({ sent: 0, dropped: 0 });
    expect(waiting.waiting).toBeGreaterThan(0);
    sendMailThrough(nextDay);
    const delivered = await runAs('reminders', () => drainDeferredNotices());
    expect(delivered).toMatchObject({ sent: waiting.waiting, dropped: 0 });
    expect((await getUserById(learner.id))?.status).toBe('active');
  });
});
