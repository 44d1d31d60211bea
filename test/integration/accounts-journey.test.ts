import { randomUUID } from 'node:crypto';
import { drainActivityStream } from '../../infra/local/activity-stream';
import { describe, expect, it } from 'vitest';
import { readStats } from '../../functions/lib/stats';
import { indexAttributes, indexKeys } from '../../functions/lib/table';
import { getUserByEmail } from '../../functions/lib/users';
import { codeIn, latestEmail, useApi } from '../helpers/api';
import { storedAuditEntries } from '../helpers/audit-entries';

const api = useApi();
const PASSWORD = 'correct horse battery staple';

const newEmail = () => `journey-${randomUUID().slice(0, 8)}@example.com`;

async function auditActions(userId: string): Promise<string[]> {
  const result = { Items: await storedAuditEntries('user', userId) };
  return (result.Items ?? []).map((item) => item.action as string);
}

describe('the account journey', () => {
  it('registers, verifies the email, signs in with two steps, reads me and logs out', async () => {
    const client = api.client({ userAgent: 'journey-test-agent' });
    const email = newEmail();
    const statsBefore = await readStats();

    const registered = await client.post('/api/auth/register', {
      first_name: '  Ada ',
      last_name: 'Lovelace',
      email,
      password: PASSWORD,
      passwordConfirm: PASSWORD,
    });
    expect(registered.status).toBe(201);
    expect(registered.body).toEqual({ ok: true, verification_pending: true });

    const stored = await getUserByEmail(email);
    expect(stored).toMatchObject({ first_name: 'Ada', verified: false, role: 'learner', status: 'active' });
    expect(stored!.password_hash).toMatch(/^scrypt\$10\$8\$1\$/);
    expect(stored).toMatchObject(indexKeys.usersUnverified(stored!));
    expect(stored).toMatchObject(indexKeys.usersByStatus(stored!));

    const verification = await latestEmail(email, /Verify your email/);
    expect(verification.text).toMatch(/valid for 10 minutes/);
    expect(verification.html).toMatch(/valid for 10 minutes/);
    const verified = await client.post('/api/auth/verify-email', { email, code: codeIn(verification) });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ ok: true });

    const afterVerify = await getUserByEmail(email);
    expect(afterVerify!.verified).toBe(true);
    for (const attribute of indexAttributes('usersUnverified')) expect(afterVerify).not.toHaveProperty(attribute);
    const statsAfter = await readStats();
    expect(statsAfter.users_verified - statsBefore.users_verified).toBe(1);
    expect(statsAfter.users_total - statsBefore.users_total).toBe(1);

    // Step 1: the password gives a challenge and no session, only the cookie binding the challenge to this browser.
    const step1 = await client.post('/api/auth/login', { email: email.toUpperCase(), password: PASSWORD });
    expect(step1.status).toBe(200);
    const anyString: unknown = expect.any(String); // `expect.any` is typed `any`: held as `unknown` to keep the object typed
    expect(step1.body).toEqual({ two_factor_pending: true, challenge_id: anyString });
    expect(step1.setCookies).toEqual([
      expect.stringMatching(/^__Host-login-challenge=[\w-]+; Path=\/; Secure; HttpOnly; SameSite=Strict; Max-Age=600$/),
    ]);
    expect((await client.get('/api/auth/me')).status).toBe(401);

    const loginEmail = await latestEmail(email, /login code/i);
    expect(loginEmail.text).toMatch(/valid for 10 minutes/);
    const step2 = await client.post('/api/auth/verify-2fa', { email, code: codeIn(loginEmail), challenge_id: step1.body.challenge_id });
    expect(step2.status).toBe(200);
    expect(step2.body).toEqual({
      ok: true,
      user: { id: stored!.id, email, first_name: 'Ada', last_name: 'Lovelace', name: 'Ada Lovelace', role: 'learner', verified: true },
    });

    // The session cookie's attributes (docs/security.md).
    const cookie = step2.setCookies.find((c) => c.startsWith('__Host-session='))!;
    expect(cookie).toBeDefined();
    const attributes = cookie.split(';').map((part) => part.trim().toLowerCase());
    expect(attributes).toContain('secure');
    expect(attributes).toContain('httponly');
    expect(attributes).toContain('samesite=lax');
    expect(attributes).toContain('path=/');
    expect(attributes.some((a) => a.startsWith('domain='))).toBe(false);

    const me = await client.get('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email, first_name: 'Ada', role: 'learner', verified: true });
    expect(me.body).not.toHaveProperty('password_hash');
    expect(me.body.progress).toEqual({
      state: 'not_enrolled',
      percent_complete: 0,
      program_title: '4-Week Career Program',
      open_module: null,
    });

    const signedIn = await getUserByEmail(email);
    expect(signedIn!.last_login_at).toBeTruthy();
    expect(signedIn!).toHaveProperty('last_active_day');

    // The login code is single use.
    const replay = await api
      .client()
      .post('/api/auth/verify-2fa', { email, code: codeIn(loginEmail), challenge_id: step1.body.challenge_id });
    expect(replay.status).toBe(400);
    // A used challenge is spent: the sign-in step says so (docs/product.md#10-journeys).
    expect(replay.body).toEqual({ error: 'invalid_code', attempts_left: 0, spent: true });

    const token = client.cookie('__Host-session')!;
    const loggedOut = await client.post('/api/auth/logout');
    expect(loggedOut.status).toBe(200);
    expect(loggedOut.setCookies.some((c) => /^__Host-session=;.*Max-Age=0/i.test(c))).toBe(true);
    expect((await client.get('/api/auth/me')).status).toBe(401);
    // The session ended server-side: the old token no longer works either.
    const stale = api.client();
    stale.setCookie('__Host-session', token);
    expect((await stale.get('/api/auth/me')).status).toBe(401);

    // Logout without a session still answers 200.
    expect((await api.client().post('/api/auth/logout')).status).toBe(200);

    // Audit entries with actor, IP and user agent; nothing secret in them.
    await drainActivityStream(); // the sign-in's entry is written from its session item
    const actions = await auditActions(stored!.id);
    expect(actions).toEqual(expect.arrayContaining(['auth.register', 'auth.email_verified', 'auth.login', 'auth.logout']));
    const audit = { Items: await storedAuditEntries('user', stored!.id) };
    for (const entry of audit.Items ?? []) {
      expect(entry).toMatchObject({
        entity_type: 'user',
        entity_id: stored!.id,
        actor_user_id: stored!.id,
        user_agent: 'journey-test-agent',
      });
      expect(entry.ip).toBeTruthy();
      const serialized = JSON.stringify(entry);
      expect(serialized).not.toContain(PASSWORD);
      expect(serialized).not.toContain('scrypt$');
      expect(serialized).not.toContain(codeIn(loginEmail));
    }
  });
});
