import { createHash, randomBytes } from 'node:crypto';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db';
import { readCookie } from '../lib/session';
import { keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { CODE_TTL_SECONDS, issueCode } from './codes';

/**
 * The sign-in challenge between the password step and the emailed code (docs/security.md,
 * "The emailed code"). Two properties keep the code from being guessed by someone who only
 * knows the password:
 * - one live challenge per account: the account names its current challenge, a new one ends the
 *   previous (deleted, and refused even if a delete raced), so tries never add up across many
 *   open challenges;
 * - bound to the browser that passed the password step: login sets a short-lived HttpOnly
 *   cookie whose hash the challenge keeps; the code and "Send a new code" need that cookie.
 */
export const CHALLENGE_COOKIE = '__Host-login-challenge';

const hashOf = (value: string) => createHash('sha256').update(value).digest('base64url');

/** A new browser binding: the cookie's value and the hash the challenge keeps. */
export function newBrowserBinding(): { value: string; hash: string } {
  const value = randomBytes(24).toString('base64url');
  return { value, hash: hashOf(value) };
}

/** The binding the request's cookies carry, as its hash (undefined without the cookie). */
export function browserBindingOf(cookies: string | undefined): { value: string; hash: string } | undefined {
  const value = readCookie(cookies, CHALLENGE_COOKIE);
  return value && /^[\w-]{16,64}$/.test(value) ? { value, hash: hashOf(value) } : undefined;
}

/** Whether the challenge item was opened by the browser whose cookies are given. */
export const isBoundTo = (item: Record<string, unknown>, cookies: string | undefined) =>
  typeof item.browser_hash === 'string' && item.browser_hash === browserBindingOf(cookies)?.hash;

/** Set-Cookie value: lives as long as a code, sent only to the API's same-site calls. */
export const challengeCookie = (value: string) =>
  `${CHALLENGE_COOKIE}=${value}; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=${CODE_TTL_SECONDS}`;
export const clearedChallengeCookie = `${CHALLENGE_COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=0`;

/**
 * Opens a challenge for the account: stores a new code bound to `browserHash`, hands it to
 * `send`, and only once it is out makes it the account's live challenge and deletes the previous
 * one (so a send SES refuses leaves the earlier challenge working).
 */
export async function openChallenge(user: UserRecord, browserHash: string, send: (code: string) => Promise<unknown>): Promise<string> {
  const challengeId = randomBytes(18).toString('base64url');
  const code = await issueCode(keys.challenge(challengeId), {
    type: 'challenge',
    user_id: user.id,
    email_lower: user.email_lower,
    browser_hash: browserHash,
  });
  await send(code);
  const updated = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.user(user.id),
      UpdateExpression: 'SET login_challenge = :id',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':id': challengeId },
      ReturnValues: 'UPDATED_OLD',
    }),
  );
  const previous: unknown = updated.Attributes?.login_challenge;
  if (typeof previous === 'string' && previous !== challengeId) {
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.challenge(previous) }));
  }
  return challengeId;
}
