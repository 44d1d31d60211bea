import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { configureMailBudgets } from '../../functions/accounts/mail-budget';
import { hashPassword } from '../../functions/accounts/passwords';
import { configureRateLimits } from '../../functions/accounts/rate-limit';
import { SESSION_COOKIE, startSession } from '../../functions/lib/session';
import { insertUser } from '../../functions/lib/users';
import { emailsTo, useApi } from '../helpers/api';

/**
 * The outbound mail budget (docs/security.md#outbound-mail-budget): per kind for the whole
 * product each hour, and security notices per account. The file has its own table, so every
 * budget starts unspent.
 */
const api = useApi();
const PASSWORD = 'copper meadow falcon';

afterEach(() => {
  configureMailBudgets();
  configureRateLimits();
});

const makeUser = async () =>
  insertUser({
    email: `budget-${randomUUID().slice(0, 8)}@example.com`,
    first_name: 'Ada',
    last_name: 'Lovelace',
    password_hash: await hashPassword(PASSWORD),
    verified: true,
  });

describe('mail budget', () => {
  it("a kind's hourly budget, once spent, refuses that kind with 503 email_unavailable; other kinds still go out", async () => {
    configureMailBudgets({ login_code: 2 });
    const users = [await makeUser(), await makeUser(), await makeUser()];
    for (const user of users.slice(0, 2)) {
      expect((await api.client().post('/api/auth/login', { email: user.email, password: PASSWORD })).status).toBe(200);
    }
    const refused = await api.client().post('/api/auth/login', { email: users[2].email, password: PASSWORD });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ error: 'email_unavailable' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await emailsTo(users[2].email)).filter((mail) => /login code/i.test(mail.subject))).toHaveLength(0);

    // verification mail has its own budget
    const email = `budget-${randomUUID().slice(0, 8)}@example.com`;
    const form = { first_name: 'Ada', last_name: 'Lovelace', email, password: PASSWORD, passwordConfirm: PASSWORD };
    expect((await api.client().post('/api/auth/register', form)).status).toBe(201);
    expect((await emailsTo(email)).filter((mail) => /Verify/.test(mail.subject))).toHaveLength(1);
  });

  it('an account gets at most its hourly security notices: the extra change still succeeds, its notice is dropped', async () => {
    configureRateLimits({ securityNoticesPerAccount: { limit: 2, windowSeconds: 3600 } });
    const user = await makeUser();
    const client = api.client();
    const { cookie } = await startSession(user, { ip: '203.0.113.9', userAgent: 'test' });
    client.setCookie(SESSION_COOKIE, cookie.split(';')[0].slice(SESSION_COOKIE.length + 1));
    const passwords = [PASSWORD, 'first new passphrase 11', 'second new passphrase 22', 'third new passphrase 33'];
    for (let i = 1; i < passwords.length; i++) {
      const changed = await client.post('/api/settings/password', {
        current_password: passwords[i - 1],
        new_password: passwords[i],
        confirm_new_password: passwords[i],
      });
      expect(changed.status).toBe(200);
    }
    expect((await emailsTo(user.email)).filter((mail) => /password was changed/.test(mail.subject))).toHaveLength(2);
  });
});
