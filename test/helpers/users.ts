import { randomUUID } from 'node:crypto';
import { startSession, SESSION_COOKIE } from '../../functions/lib/session';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteItems } from '../../functions/lib/batch-items';
import { db } from '../../functions/lib/db';
import { type StatsField, statsUpdate } from '../../functions/lib/stats';
import { insertUser, type NewUser, newUserCounts, newUserItems, newUserRecord } from '../../functions/lib/users';
import type { UserRecord } from '../../functions/lib/user-record';
import type { ApiClient } from './api';

/**
 * Creates an account directly in the table (verified learner by default), bypassing the
 * registration flow, for tests of other features. The password hash is not a real one: such an
 * account cannot sign in with a password, only through `signIn`.
 */
export async function createTestUser(overrides: Partial<NewUser> = {}): Promise<UserRecord> {
  return insertUser(testUserInput(overrides));
}

function testUserInput(overrides: Partial<NewUser>): NewUser {
  const id = randomUUID().slice(0, 8);
  return {
    email: `learner-${id}@example.com`,
    first_name: 'Test',
    last_name: `Learner ${id}`,
    password_hash: 'not-a-real-hash',
    verified: true,
    ...overrides,
  };
}

/**
 * Many accounts at once, for the tests of reads at size: the same items `insertUser` writes, put
 * in batches of 25, and their counts added to one counter shard in one update, instead of a
 * transaction per account that conflicts with its neighbours on the shards.
 */
export async function createTestUsers(overrides: Array<Partial<NewUser>>): Promise<UserRecord[]> {
  const users = overrides.map((each) => newUserRecord(testUserInput(each)));
  const items = users.flatMap((user) => {
    const { account, emailGuard, search } = newUserItems(user);
    return [account, emailGuard, ...search];
  });
  await batchWriteItems(items.map((Item) => ({ PutRequest: { Item } })));
  const counts: Partial<Record<StatsField, number>> = {};
  for (const [field, value] of users.flatMap((user) => Object.entries(newUserCounts(user))))
    counts[field as StatsField] = (counts[field as StatsField] ?? 0) + value;
  await db().send(new TransactWriteCommand({ TransactItems: [statsUpdate(counts)!] }));
  return users;
}

/** Gives the client a real session for the user, as a completed two-step sign-in would. */
export async function signIn(client: ApiClient, user: Pick<UserRecord, 'id' | 'session_version'>): Promise<void> {
  const { cookie } = await startSession(user);
  const value = cookie.split(';')[0].slice(SESSION_COOKIE.length + 1);
  client.setCookie(SESSION_COOKIE, value);
}
