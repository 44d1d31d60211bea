import { createHash, randomBytes } from 'node:crypto';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db';
import { readCookie } from '../lib/session';
import { keys, SK, ttlIn } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import type { Caller } from '../lib/caller';
import { sendSecurityNotice } from './security-notices';

/**
 * "A new sign-in from a browser this account has not used before" (docs/security.md#account-security-center).
 * Each browser gets a random id in a long-lived `__Host-` cookie; the account keeps the sha256 of
 * every id it signed in from (USER#<id> / BROWSER#<hash>, TTL refreshed at each sign-in). A
 * sign-in whose browser id is missing or unknown to the account sends the notice, except when the
 * account has no known browser yet (its first sign-in: nothing to compare with).
 */
export const BROWSER_COOKIE = '__Host-browser';
const BROWSER_TTL_SECONDS = 400 * 24 * 3600;

const hashOf = (browserId: string) => createHash('sha256').update(browserId).digest('base64url');

export function browserCookie(browserId: string): string {
  return `${BROWSER_COOKIE}=${browserId}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=${BROWSER_TTL_SECONDS}`;
}

/**
 * Remembers the browser for the account after a successful sign-in and sends the notice when it
 * is new. Returns the Set-Cookie value to send back (always, to slide the cookie's lifetime).
 */
export async function recognizeBrowser(
  user: Pick<UserRecord, 'id' | 'email' | 'first_name'>,
  cookies: string | undefined,
  caller: Caller,
): Promise<string> {
  const sent = readCookie(cookies, BROWSER_COOKIE);
  const browserId = sent && /^[\w-]{16,64}$/.test(sent) ? sent : randomBytes(18).toString('base64url');
  const now = new Date().toISOString();
  // One write tells known from new: ALL_OLD is empty when the account had not seen this browser.
  const hadAny = async () => {
    const found = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :browser)',
        ExpressionAttributeValues: { ':pk': keys.user(user.id).pk, ':browser': SK.browser },
        ProjectionExpression: 'pk',
        Limit: 1,
      }),
    );
    return Boolean(found.Items?.length);
  };
  const firstBrowser = !(await hadAny());
  const result = await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.knownBrowser(user.id, hashOf(browserId)),
        type: 'known_browser',
        user_id: user.id,
        last_sign_in_at: now,
        expires_at: ttlIn(BROWSER_TTL_SECONDS),
      },
      ReturnValues: 'ALL_OLD',
    }),
  );
  const known = Boolean(result.Attributes) && Number(result.Attributes?.expires_at) > Math.floor(Date.now() / 1000);
  if (!known && !firstBrowser) await sendSecurityNotice(user, 'new_sign_in', caller);
  return browserCookie(browserId);
}
