import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../functions/accounts/passwords';
import { configureRateLimits } from '../../functions/accounts/rate-limit';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { CODE_MAX_ATTEMPTS } from '../../shared/constants';
import { db, tableName } from '../../functions/lib/db';
import { keys } from '../../functions/lib/table';
import { insertUser } from '../../functions/lib/users';
import { codeIn, emailsTo, latestEmail, useApi, type ApiClient } from '../helpers/api';

const api = useApi();
const PASSWORD = 'copper lantern meadow';

afterEach(() => configureRateLimits());

async function makeUser() {
  const email = `challenge-${randomUUID().slice(0, 8)}@example.com`;
  await insertUser({ email, first_name: 'Grace', last_name: 'Hopper', password_hash: await hashPassword(PASSWORD), verified: true });
  return email;
}

/** The password step in `client`; the challenge id and the code it mailed. */
async function passwordStep(client: ApiClient, email: string) {
  const step1 = await client.post<{ challenge_id: string }>('/api/auth/login', { email, password: PASSWORD });
  expect(step1.status).toBe(200);
  return { challengeId: step1.body.challenge_id, code: codeIn(await latestEmail(email, /login code/i)) };
}

const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');
const verify = (client: ApiClient, email: string, code: string, challengeId: string) =>
  client.post('/api/auth/verify-2fa', { email, code, challenge_id: challengeId });

describe('the sign-in challenge', () => {
  it('allows a set number of code tries per account across challenges, then answers throttled for that account only', async () => {
    configureRateLimits({ codeTriesPerAccount: { limit: 6, windowSeconds: 3600 } });
    const email = await makeUser();
    const client = api.client();
    for (let round = 0; round < 2; round++) {
      const { challengeId, code } = await passwordStep(client, email);
      for (let i = 0; i < 3; i++) expect((await verify(client, email, wrongFor(code), challengeId)).status).toBe(400);
    }
    // A fresh challenge has tries left of its own, but the account's budget is spent.
    const { challengeId, code } = await passwordStep(client, email);
    const refused = await verify(client, email, code, challengeId);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'throttled' });
    expect((await client.get('/api/auth/me')).status).toBe(401);

    // Another account behind the same address signs in.
    const other = await makeUser();
    const otherClient = api.client();
    const otherStep = await passwordStep(otherClient, other);
    expect((await verify(otherClient, other, otherStep.code, otherStep.challengeId)).status).toBe(200);
  });

  it('compares no more codes than a challenge allows, however many tries arrive at once', async () => {
    const email = await makeUser();
    const client = api.client();
    const { challengeId, code } = await passwordStep(client, email);
    const answers = await Promise.all(Array.from({ length: 12 }, () => verify(client, email, wrongFor(code), challengeId)));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 12 }, () => 400));
    // each try is counted on the challenge before its code is compared: five compared, the rest refused unseen
    const challenge = await db().send(new GetCommand({ TableName: tableName(), Key: keys.challenge(challengeId) }));
    expect(challenge.Item?.attempts).toBe(CODE_MAX_ATTEMPTS);
    expect((await verify(client, email, code, challengeId)).body).toMatchObject({ error: 'invalid_code', spent: true });
  });

  it('limits how many challenges (and login-code mails) an account gets, from its trusted devices and other browsers together; a refused one keeps no password try', async () => {
    configureRateLimits({
      loginChallengesPerAccount: { limit: 3, windowSeconds: 3600 },
      loginFailuresPerAccount: { limit: 2, windowSeconds: 3600 },
    });
    const email = await makeUser();
    const trusted = api.client();
    const first = await passwordStep(trusted, email);
    expect((await verify(trusted, email, first.code, first.challengeId)).status).toBe(200); // the browser is a trusted device now
    await passwordStep(trusted, email);
    const stranger = api.client();
    await passwordStep(stranger, email);
    for (const client of [stranger, trusted]) {
      const refused = await client.post('/api/auth/login', { email, password: PASSWORD });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ error: 'throttled' });
    }
    expect((await emailsTo(email)).filter((mail) => /login code/i.test(mail.subject))).toHaveLength(3);
    // every right password gave its reservation of the pool back, the refused ones too: the pool's two failures are left
    const wrong = async () => (await stranger.post('/api/auth/login', { email, password: `${PASSWORD} no` })).status;
    expect([await wrong(), await wrong(), await wrong()]).toEqual([401, 401, 429]);
  });

  it('keeps one live challenge per account: a new sign-in ends the previous one', async () => {
    const email = await makeUser();
    const client = api.client();
    const first = await passwordStep(client, email);
    const second = await passwordStep(client, email);
    expect((await verify(client, email, first.code, first.challengeId)).status).toBe(400);
    expect((await client.post('/api/auth/resend-2fa', { email, challenge_id: first.challengeId })).body).toEqual({
      error: 'challenge_expired',
    });
    expect((await verify(client, email, second.code, second.challengeId)).status).toBe(200);
  });

  it('is bound to the browser that passed the password step', async () => {
    const email = await makeUser();
    const browser = api.client();
    const { challengeId, code } = await passwordStep(browser, email);
    const elsewhere = api.client();
    expect((await verify(elsewhere, email, code, challengeId)).status).toBe(400);
    expect((await elsewhere.get('/api/auth/me')).status).toBe(401);
    expect((await elsewhere.post('/api/auth/resend-2fa', { email, challenge_id: challengeId })).body).toEqual({
      error: 'challenge_expired',
    });

    const signedIn = await verify(browser, email, code, challengeId);
    expect(signedIn.status).toBe(200);
    // The binding cookie ends with the sign-in.
    expect(signedIn.setCookies).toContain('__Host-login-challenge=; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=0');
    expect(browser.cookie('__Host-login-challenge')).toBeUndefined();
  });
});
