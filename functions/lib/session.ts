import { randomBytes } from 'node:crypto';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SignJWT, jwtVerify, errors as joseErrors, type JWTHeaderParameters } from 'jose';
import { type AccountAction, accepts, statusCondition } from './account-states';
import { batchGetItems } from './batch-items';
import { db, tableName } from './db';
import { keyRing, refreshKeyRing } from './session-keys';
import { keys, ttlIn } from './table';
import type { UserRecord } from './user-record';
import { SIGNED_IN_HINT_COOKIE } from '../../shared/constants';
import { currentDate, nowIso, nowSeconds } from './clock';

/**
 * Sessions (docs/security.md): a jose-signed HS256 token in a `__Host-` cookie. The token carries the
 * session id and the account's session_version; every request checks both against DynamoDB, so
 * a lock, delete, logout, password reset or "invalidate sessions" takes effect at once.
 */
export const SESSION_COOKIE = '__Host-session';
/** A session unused this long ends (ASVS 3.3.2 at level 2: at most 30 minutes). */
export const IDLE_TIMEOUT_SECONDS = 30 * 60;
export const ABSOLUTE_LIFETIME_SECONDS = 12 * 60 * 60;
/**
 * How long a session item is kept after the session ends. The item is the source of its
 * sign-in's `auth.login` audit entry, which the table's stream writes
 * (functions/lib/sign-in-audit.ts); the stream keeps records 24 hours, so after a longer outage
 * of the aggregator `npm run rebuild` writes the entry from the item. Eight days leave a week to
 * notice an outage and fix it. The item's TTL is never the session's end: that is
 * `sessionEndMs`, and every reader of a session's lifetime uses it.
 */
export const SESSION_KEPT_AFTER_END_SECONDS = 8 * 24 * 60 * 60;
/** A token older than this is re-issued on use, which slides the idle timeout. */
const RENEW_AFTER_SECONDS = 5 * 60;
const ISSUER = 'career-program';
const AUDIENCE = 'career-program-web';
const ALGORITHM = 'HS256';

/**
 * The key that verifies a token: the one its `kid` names (docs/security.md#session-signing-keys: the newest key
 * signs, older keys still verify during a rotation). A token without a kid predates key ids
 * and is checked with the current key.
 */
async function verificationKey(header: JWTHeaderParameters): Promise<Uint8Array> {
  let ring = await keyRing();
  if (!header.kid) return ring.current.key;
  if (!ring.byKid.has(header.kid)) ring = await refreshKeyRing();
  const found = ring.byKid.get(header.kid);
  if (!found) throw new joseErrors.JWKSNoMatchingKey();
  return found.key;
}

interface SessionClaims {
  sid: string;
  ver: number;
  auth_time: number;
}

async function signToken(userId: string, claims: SessionClaims, nowSeconds: number): Promise<string> {
  const expiresAt = Math.min(nowSeconds + IDLE_TIMEOUT_SECONDS, claims.auth_time + ABSOLUTE_LIFETIME_SECONDS);
  const { current } = await keyRing();
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: ALGORITHM, kid: current.kid })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(userId)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(expiresAt)
    .sign(current.key);
}

export function sessionCookie(token: string): string {
  return `${SESSION_COOKIE}=${token}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=${ABSOLUTE_LIFETIME_SECONDS}`;
}

export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0`;
}

/**
 * The Set-Cookie values with the signed-in hint (shared/constants.ts SIGNED_IN_HINT_COOKIE) beside
 * each session cookie: set with the same path, SameSite and lifetime when the session cookie is
 * set or renewed, cleared when it is cleared. Readable by script (no HttpOnly): it holds no secret.
 */
export function withSignedInHint(cookies: readonly string[]): string[] {
  return cookies.flatMap((cookie) => {
    if (!cookie.startsWith(`${SESSION_COOKIE}=`)) return [cookie];
    const maxAge = /;\s*Max-Age=(\d+)/i.exec(cookie)?.[1] ?? '0';
    const value = maxAge === '0' ? '' : '1';
    return [cookie, `${SIGNED_IN_HINT_COOKIE}=${value}; Path=/; Secure; SameSite=Lax; Max-Age=${maxAge}`];
  });
}

/**
 * When a session ends whatever its use (epoch milliseconds): its sign-in time plus the absolute
 * lifetime; NaN for an item without a sign-in time, which compares as ended. The idle timeout
 * may end it sooner.
 */
export const sessionEndMs = (createdAt: string | undefined): number => Date.parse(createdAt ?? '') + ABSOLUTE_LIFETIME_SECONDS * 1000;

/** Where a session was started from, kept on its item for "Where you're signed in". */
export interface SessionOrigin {
  ip: string;
  userAgent: string;
}

/** Starts a new session (a new token at every sign-in) and returns its Set-Cookie value. */
export async function startSession(
  user: Pick<UserRecord, 'id' | 'session_version'>,
  origin?: SessionOrigin,
  /** Kept on the item as they are (the sign-in's audit note, functions/lib/sign-in-audit.ts). */
  attributes: Record<string, string> = {},
): Promise<{ cookie: string; sessionId: string }> {
  const now = nowSeconds();
  const sessionId = randomBytes(18).toString('base64url');
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.session(user.id, sessionId),
        type: 'session',
        user_id: user.id,
        created_at: new Date(now * 1000).toISOString(),
        // the item outlives the session: the source of its sign-in's audit entry for a rebuild
        expires_at: ttlIn(ABSOLUTE_LIFETIME_SECONDS + SESSION_KEPT_AFTER_END_SECONDS, now * 1000),
        // For the session list (docs/security.md#account-security-center): a session of an older version is over.
        last_seen_at: new Date(now * 1000).toISOString(),
        session_version: user.session_version ?? 0,
        ...(origin ? { ip: origin.ip.slice(0, 64), user_agent: origin.userAgent.slice(0, 512) } : {}),
        ...attributes,
      },
    }),
  );
  const token = await signToken(user.id, { sid: sessionId, ver: user.session_version, auth_time: now }, now);
  return { cookie: sessionCookie(token), sessionId };
}

export interface ActiveSession {
  user: UserRecord;
  sessionId: string;
  /** Set when the token was renewed (sliding idle timeout): send it back as Set-Cookie. */
  renewedCookie?: string;
  /** When the person signed in (epoch seconds): the 12-hour absolute limit counts from here, and
   * adding a passkey accepts a sign-in of the last 5 minutes (docs/security.md#account-security-center). */
  authTime: number;
}

export function readCookie(cookieHeader: string | undefined, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

/** Verifies the cookie's token and checks it against the account. Undefined = no valid session. */
export async function resolveSession(cookies: string | undefined): Promise<ActiveSession | undefined> {
  const token = readCookie(cookies, SESSION_COOKIE);
  if (!token) return undefined;
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, verificationKey, {
      currentDate: currentDate(),
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['sub', 'exp', 'iat'],
    }));
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return undefined;
    throw error;
  }
  const userId = String(payload.sub);
  const claims = { sid: String(payload.sid), ver: Number(payload.ver), auth_time: Number(payload.auth_time) };
  const now = nowSeconds();
  if (!claims.sid || !Number.isFinite(claims.auth_time) || now >= claims.auth_time + ABSOLUTE_LIFETIME_SECONDS) {
    return undefined;
  }
  // The idle timeout from the token's issue, whatever its `exp` says: a token signed under a
  // longer timeout (before a deploy that shortened it) ends on the current one.
  if (!Number.isFinite(Number(payload.iat)) || now - Number(payload.iat) >= IDLE_TIMEOUT_SECONDS) return undefined;

  const userKey = keys.user(userId);
  const sessionKey = keys.session(userId, claims.sid);
  // a key DynamoDB leaves unprocessed is read again: it must never read as a missing session
  const items = await batchGetItems([userKey, sessionKey], { consistentRead: true });
  const user = items.find((item) => item.sk === 'PROFILE') as UserRecord | undefined;
  const session = items.find((item) => item.sk === sessionKey.sk);
  if (!user || !session || session.ended_at) return undefined;
  if (!accepts('signedIn', user.status) || user.is_locked) return undefined;
  if ((user.session_version ?? 0) !== claims.ver) return undefined;

  let renewedCookie: string | undefined;
  if (now - Number(payload.iat) >= RENEW_AFTER_SECONDS) {
    renewedCookie = sessionCookie(await signToken(userId, claims, now));
    await touchSession(userId, claims.sid, now);
  }
  return { user, sessionId: claims.sid, renewedCookie, authTime: claims.auth_time };
}

/**
 * Ends one session (logout): the item is marked ended, not deleted. It stays until its TTL (8 days
 * after the session's end) as the source of its sign-in's audit entry, which the table's stream
 * writes and `npm run rebuild` rewrites after an outage of the stream (docs/runbook.md "Rebuilding
 * derived data"); an ended session never signs anyone in (`resolveSession`) nor shows as live.
 */
export async function endSession(userId: string, sessionId: string): Promise<void> {
  await db()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.session(userId, sessionId),
        UpdateExpression: 'SET ended_at = if_not_exists(ended_at, :now)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': nowIso() },
      }),
    )
    .catch((error: Error) => {
      if (error.name !== 'ConditionalCheckFailedException') throw error;
    });
}

/**
 * Ends every session of the account by bumping session_version. When `keep` is given ("sign out
 * everywhere else"), that session gets a fresh token carrying the new version, so only the others
 * end. The kept session keeps its sign-in time: it never extends the 12-hour limit. The bump is
 * conditioned on a status `action` accepts (functions/lib/account-states.ts): on any other, or a
 * missing account, it throws ConditionalCheckFailedException and writes nothing.
 */
export async function endAllSessions(
  userId: string,
  action: AccountAction,
  keep?: { sessionId: string; authTime?: number },
): Promise<{ cookie?: string }> {
  const accepted = statusCondition(action);
  const result = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.user(userId),
      UpdateExpression: 'ADD session_version :one',
      ConditionExpression: `attribute_exists(pk) AND ${accepted.expression}`,
      ExpressionAttributeNames: accepted.names,
      ExpressionAttributeValues: { ':one': 1, ...accepted.values },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  if (!keep) return {};
  return keepSession(userId, keep, Number(result.Attributes?.session_version));
}

/**
 * A fresh cookie for the session `keep` at the account's new session_version `version` (already
 * written, e.g. in the same transaction as a new password), so only the other sessions end.
 */
export async function keepSession(
  userId: string,
  keep: { sessionId: string; authTime?: number },
  version: number,
): Promise<{ cookie: string }> {
  const now = nowSeconds();
  const authTime = keep.authTime !== undefined && Number.isFinite(keep.authTime) ? Math.min(keep.authTime, now) : now;
  const token = await signToken(userId, { sid: keep.sessionId, ver: version, auth_time: authTime }, now);
  await markSessionVersion(userId, keep.sessionId, version);
  return { cookie: sessionCookie(token) };
}

/**
 * Records that a session was used: written when its token is renewed (at most every few
 * minutes), so the list shows a recent "last seen" without a write on every request. The
 * condition keeps an ended session from coming back.
 */
async function touchSession(userId: string, sessionId: string, nowSeconds: number): Promise<void> {
  await db()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.session(userId, sessionId),
        UpdateExpression: 'SET last_seen_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(ended_at)',
        ExpressionAttributeValues: { ':now': new Date(nowSeconds * 1000).toISOString() },
      }),
    )
    .catch((error: Error) => {
      if (error.name !== 'ConditionalCheckFailedException') throw error;
    });
}

/** The kept session of endAllSessions carries the new version, so the list still shows it. */
async function markSessionVersion(userId: string, sessionId: string, version: number): Promise<void> {
  await db()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.session(userId, sessionId),
        UpdateExpression: 'SET session_version = :version',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':version': version },
      }),
    )
    .catch((error: Error) => {
      if (error.name !== 'ConditionalCheckFailedException') throw error;
    });
}
