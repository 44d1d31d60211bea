import { createHash, randomBytes } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db';
import { readCookie } from '../lib/session';
import { keys, SK } from '../lib/table';
import type { KnownBrowsers, UserRecord } from '../lib/user-record';
import { nowMs } from '../lib/clock';

/**
 * "A new sign-in from a browser this account has not used before" (docs/security.md#account-security-center).
 * Each browser gets a random id in a long-lived `__Host-` cookie. The account item keeps the
 * browsers it signed in from as a small map (`known_browsers`: the start of the id's sha256 →
 * the day of its last sign-in), written by the sign-in's one write of the account, which also
 * answers the map as it was (functions/accounts/login.ts completeSignIn): no read or write of its
 * own. A sign-in whose browser is not in the old map (or was last seen more than 400 days ago)
 * sends the notice, except when the map was empty (the account's first sign-in: nothing to
 * compare with).
 */
export const BROWSER_COOKIE = '__Host-browser';
const BROWSER_DAYS = 400;
const BROWSER_TTL_SECONDS = BROWSER_DAYS * 24 * 3600;
const DAY_MS = 24 * 3600 * 1000;
/**
 * The browsers an account keeps, the most recent: the map stays ~150 bytes, so the account item
 * (~0.75 KB) stays within one write unit. A seventh browser pushes out the one unused longest,
 * whose next sign-in sends the notice again.
 */
export const KNOWN_BROWSERS_KEPT = 6;
/** 96 bits of the id's hash: enough to tell an account's few browsers apart, and no one can choose an id matching another's. */
const KEY_LENGTH = 16;

const hashOf = (browserId: string) => createHash('sha256').update(browserId).digest('base64url');
const dayNumber = (ms: number) => Math.floor(ms / DAY_MS);

export function browserCookie(browserId: string): string {
  return `${BROWSER_COOKIE}=${browserId}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=${BROWSER_TTL_SECONDS}`;
}

export interface BrowserSignIn {
  /** Set-Cookie value to send back (always, to slide the cookie's lifetime). */
  cookie: string;
  /** The account's map with this browser's sign-in today: what the account write sets. */
  knownBrowsers: KnownBrowsers;
  /** Whether the notice is due, given the map as the account write found it (undefined: the account had none). */
  isNew: (before: KnownBrowsers | undefined) => boolean;
}

/**
 * The browser of a sign-in about to be written on the account `user` (as just read): its id
 * (the cookie's, or a new one) and the map to write. Two sign-ins writing at once each set the
 * map they computed, so the later one may drop the other's browser: that browser's next
 * sign-in sends one notice more, never one less (each sign-in decides on the map its own write
 * replaced, and no write empties the map).
 */
export async function browserSignIn(
  user: Pick<UserRecord, 'id' | 'known_browsers'>,
  cookies: string | undefined,
  now = nowMs(),
): Promise<BrowserSignIn> {
  const sent = readCookie(cookies, BROWSER_COOKIE);
  const browserId = sent && /^[\w-]{16,64}$/.test(sent) ? sent : randomBytes(18).toString('base64url');
  const key = hashOf(browserId).slice(0, KEY_LENGTH);
  const today = dayNumber(now);
  const current = user.known_browsers ?? (await browsersFromItems(user.id, now));
  const recent = Object.entries(current)
    .filter(([other, day]) => other !== key && typeof day === 'number' && day + BROWSER_DAYS > today)
    .sort(([, a], [, b]) => b - a)
    .slice(0, KNOWN_BROWSERS_KEPT - 1);
  const decide = (before: KnownBrowsers) => {
    const seen = before[key];
    return Object.keys(before).length > 0 && !(typeof seen === 'number' && seen + BROWSER_DAYS > today);
  };
  return {
    cookie: browserCookie(browserId),
    knownBrowsers: { ...Object.fromEntries(recent), [key]: today },
    isNew: (before) => decide(before ?? current),
  };
}

/**
 * The browsers of an account whose item has no map yet: its older sign-ins kept one item per
 * browser (USER#<id> / BROWSER#<sha256>, expiring 400 days after the browser's last sign-in).
 * Read once, on such an account's next sign-in, which writes them into the map; the items
 * expire by their TTL (a hard delete takes them with the partition).
 */
async function browsersFromItems(userId: string, now: number): Promise<KnownBrowsers> {
  const found = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :browser)',
      ExpressionAttributeValues: { ':pk': keys.user(userId).pk, ':browser': SK.browser },
      ProjectionExpression: 'sk, expires_at',
    }),
  );
  const nowSeconds = Math.floor(now / 1000);
  const entries = (found.Items ?? []).map((item) => {
    const expiresAt = Number(item.expires_at);
    // an unexpired one is known (its last sign-in's day rounded up), an expired one still counts
    // as "the account had a browser" (a day too old to be known)
    const lastSignIn = dayNumber((expiresAt - BROWSER_TTL_SECONDS) * 1000) + 1;
    const day = expiresAt > nowSeconds ? Math.min(lastSignIn, dayNumber(now)) : dayNumber(now) - BROWSER_DAYS;
    return [String(item.sk).slice(SK.browser.length, SK.browser.length + KEY_LENGTH), day] as const;
  });
  return Object.fromEntries(entries);
}
