import { randomUUID } from 'node:crypto';
import { startSession, SESSION_COOKIE } from '../../functions/lib/session';
import { insertUser, type NewUser } from '../../functions/lib/users';
import type { UserRecord } from '../../functions/lib/user-record';
import type { ApiClient } from './api';

/**
 * Creates an account directly in the table (verified learner by default), bypassing the
 * registration flow, for tests of other features. The password hash is not a real one: such an
 * account cannot sign in with a password, only through `signIn`.
 */
export async function createTestUser(overrides: Partial<NewUser> = {}): Promise<UserRecord> {
  const id = randomUUID().slice(0, 8);
  return insertUser({
    email: `learner-${id}@example.com`,
    first_name: 'Test',
    last_name: `Learner ${id}`,
    password_hash: 'not-a-real-hash',
    verified: true,
    ...overrides,
  });
}

/** Gives the client a real session for the user, as a completed two-step sign-in would. */
export async function signIn(client: ApiClient, user: Pick<UserRecord, 'id' | 'session_version'>): Promise<void> {
  const { cookie } = await startSession(user);
  const value = cookie.split(';')[0].slice(SESSION_COOKIE.length + 1);
  client.setCookie(SESSION_COOKIE, value);
}
