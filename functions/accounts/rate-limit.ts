import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db';
import { throttled } from '../lib/errors';
import { keys } from '../lib/table';

/**
 * Rate limits (DESIGN §5) as fixed windows in DynamoDB: one item per scope, key and window
 * (RATE#<scope>#<key> / WINDOW#<start>) counted with an atomic ADD guarded by a condition, so
 * concurrent requests never overshoot. Items carry a TTL and vanish after their window.
 */
export interface Limit {
  limit: number;
  windowSeconds: number;
}

const HOUR = 3600;
const defaults = {
  registerPerIp: { limit: 50, windowSeconds: HOUR },
  registerPerEmail: { limit: 10, windowSeconds: HOUR },
  loginFailuresPerIp: { limit: 100, windowSeconds: HOUR },
  loginFailuresPerAccount: { limit: 100, windowSeconds: HOUR },
  codeResendPerMinute: { limit: 1, windowSeconds: 60 },
  codeResendPerHour: { limit: 5, windowSeconds: HOUR },
  /** Public resend calls (verification code, new login code) per IP: bounds probing and mail volume. */
  codeResendPerIp: { limit: 30, windowSeconds: HOUR },
  codeChecksPerIp: { limit: 100, windowSeconds: HOUR },
  resetRequestsPerIp: { limit: 20, windowSeconds: HOUR },
  resetRequestsPerEmail: { limit: 5, windowSeconds: HOUR },
  passwordChangesPerUser: { limit: 10, windowSeconds: HOUR },
} satisfies Record<string, Limit>;

export type LimitName = keyof typeof defaults;
export const rateLimits: Record<LimitName, Limit> = { ...defaults };

/** Tests lower limits to reach them quickly; called with nothing it restores the defaults. */
export function configureRateLimits(overrides: Partial<Record<LimitName, Limit>> = {}): void {
  Object.assign(rateLimits, defaults, overrides);
}

function windowOf(name: LimitName, now: number) {
  const { limit, windowSeconds } = rateLimits[name];
  const nowSeconds = Math.floor(now / 1000);
  const start = nowSeconds - (nowSeconds % windowSeconds);
  return { limit, start, end: start + windowSeconds, retryAfter: Math.max(1, start + windowSeconds - nowSeconds) };
}

/** Counts one use; 429 `throttled` (with retry_after) when the window is already full. */
export async function consume(name: LimitName, key: string, now = Date.now()): Promise<void> {
  const window = windowOf(name, now);
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.rateWindow(name, key.toLowerCase(), window.start),
        UpdateExpression: 'ADD #count :one SET expires_at = :ttl',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':one': 1, ':limit': window.limit, ':ttl': window.end + 60 },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw throttled(window.retryAfter);
    throw error;
  }
}

/** Like `consume`, but answers true/false instead of throwing (a silent limit). */
export async function tryConsume(name: LimitName, key: string, now = Date.now()): Promise<boolean> {
  try {
    await consume(name, key, now);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'throttled') return false;
    throw error;
  }
}

/** For limits on failures: refuse when the window is full, without counting this try. */
export async function assertNotExhausted(name: LimitName, key: string, now = Date.now()): Promise<void> {
  const window = windowOf(name, now);
  const found = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.rateWindow(name, key.toLowerCase(), window.start), ConsistentRead: true }),
  );
  if (Number(found.Item?.count ?? 0) >= window.limit) throw throttled(window.retryAfter);
}

/** Records one failure (never throws `throttled`: the next try is refused by assertNotExhausted). */
export async function recordFailure(name: LimitName, key: string, now = Date.now()): Promise<void> {
  const window = windowOf(name, now);
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.rateWindow(name, key.toLowerCase(), window.start),
      UpdateExpression: 'ADD #count :one SET expires_at = :ttl',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':one': 1, ':ttl': window.end + 60 },
    }),
  );
}

// ---- Login backoff ---------------------------------------------------------------------------

export const BACKOFF_FREE_FAILURES = 5;
export const BACKOFF_MAX_SECONDS = 15 * 60;
/** A quiet day forgets the failures. */
const BACKOFF_MEMORY_SECONDS = 24 * HOUR;

/**
 * Seconds to wait before the next try after `failures` consecutive failures: none for the first
 * four, then 1 s after the 5th, doubling per failure (2, 4, 8 …), capped at 15 minutes.
 */
export function backoffSeconds(failures: number): number {
  if (failures < BACKOFF_FREE_FAILURES) return 0;
  return Math.min(2 ** (failures - BACKOFF_FREE_FAILURES), BACKOFF_MAX_SECONDS);
}

/**
 * Keyed by the normalized email, not the account, so an unknown email backs off exactly like a
 * real one (nothing to learn from a 429).
 */
export async function assertLoginAllowed(email: string, now = Date.now()): Promise<void> {
  const found = await db().send(new GetCommand({ TableName: tableName(), Key: keys.loginBackoff(email), ConsistentRead: true }));
  const nextAllowedAt = Number(found.Item?.next_allowed_at ?? 0);
  if (now < nextAllowedAt) throw throttled(Math.ceil((nextAllowedAt - now) / 1000));
}

export async function recordLoginFailure(email: string, now = Date.now()): Promise<number> {
  const key = keys.loginBackoff(email);
  const ttl = Math.floor(now / 1000) + BACKOFF_MEMORY_SECONDS;
  const counted = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'ADD failures :one SET expires_at = :ttl',
      ExpressionAttributeValues: { ':one': 1, ':ttl': ttl },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const failures = Number(counted.Attributes?.failures ?? 1);
  const wait = backoffSeconds(failures);
  if (wait > 0) {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET next_allowed_at = :next',
        ExpressionAttributeValues: { ':next': now + wait * 1000 },
      }),
    );
  }
  return failures;
}

/** A correct password clears the consecutive failures. */
export async function resetLoginFailures(email: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.loginBackoff(email) }));
}
