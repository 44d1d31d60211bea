import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { writeAudit } from '../lib/audit';
import { auditEmailHash } from '../lib/audit-privacy';
import { ipRateKey } from '../lib/client-ip';
import { db, tableName } from '../lib/db';
import { count, METRIC } from '../lib/metrics';
import { throttled } from '../lib/errors';
import { keys } from '../lib/table';
import type { Caller } from '../lib/caller';

/**
 * Rate limits (docs/security.md) as fixed windows in DynamoDB: one item per scope, key and window
 * (RATE#<scope>#<key> / WINDOW#<start>) counted with an atomic ADD guarded by a condition, so
 * concurrent requests never overshoot. Items carry a TTL and vanish after their window.
 * Per-IP scopes (`…PerIp`) count an IPv6 address by its /64, or by its /56 for the calls that
 * send mail or check a password ({@link BY_IPV6_56}, functions/lib/client-ip.ts).
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
  /**
   * Passkey sign-in attempts that failed, per /64: a pool of their own, so password guessing
   * behind a shared address never blocks the owner's passkey.
   */
  passkeyFailuresPerIp: { limit: 100, windowSeconds: HOUR },
  // Together at most 100 failures an hour per account (docs/security.md#sign-in-a-stranger-cannot-lock-the-owner-out-guessing-stays-bounded): 90 from browsers
  // the account does not know, 10 from the account's own trusted devices.
  loginFailuresPerAccount: { limit: 90, windowSeconds: HOUR },
  loginFailuresPerAccountTrusted: { limit: 10, windowSeconds: HOUR },
  codeResendPerMinute: { limit: 1, windowSeconds: 60 },
  codeResendPerHour: { limit: 5, windowSeconds: HOUR },
  /** Public resend calls (verification code, new login code) per IP: bounds probing and mail volume. */
  codeResendPerIp: { limit: 30, windowSeconds: HOUR },
  codeChecksPerIp: { limit: 100, windowSeconds: HOUR },
  /** Sign-in code tries per account across all its challenges and callers' addresses (ASVS 2.2.1). */
  codeTriesPerAccount: { limit: 20, windowSeconds: HOUR },
  /** Sign-in challenges (each one a login-code mail) per account, like the resend limit. */
  loginChallengesPerAccount: { limit: 10, windowSeconds: HOUR },
  resetRequestsPerIp: { limit: 20, windowSeconds: HOUR },
  resetRequestsPerEmail: { limit: 5, windowSeconds: HOUR },
  resetTokenChecksPerIp: { limit: 100, windowSeconds: HOUR },
  passwordChangesPerUser: { limit: 10, windowSeconds: HOUR },
  /** Security notices per account (by its email): extra ones are dropped, the request goes on. */
  securityNoticesPerAccount: { limit: 10, windowSeconds: HOUR },
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

const isIpScope = (name: LimitName) => name.endsWith('PerIp');
/**
 * The public calls that send mail or check a password (register, resend, sign-in, reset request)
 * count an IPv6 caller by its /56; the others by its /64 (functions/lib/client-ip.ts).
 */
export const BY_IPV6_56: ReadonlySet<LimitName> = new Set<LimitName>([
  'registerPerIp',
  'codeResendPerIp',
  'loginFailuresPerIp',
  'resetRequestsPerIp',
]);
/** The key a limit counts `key` under: an address block for per-IP scopes, else the lower-cased key. */
export const scopeKey = (name: LimitName, key: string) =>
  isIpScope(name) ? ipRateKey(key, BY_IPV6_56.has(name) ? 56 : 64) : key.toLowerCase();
const windowKey = (name: LimitName, key: string, start: number) => keys.rateWindow(name, scopeKey(name, key), start);

/**
 * Counts one use; 429 `throttled` (with retry_after) when the window is already full. The first
 * refusal of a window is written to the audit log (once per window and key, so a flood cannot
 * flood the log).
 */
export async function consume(name: LimitName, key: string, caller?: Caller, now = Date.now()): Promise<void> {
  const window = windowOf(name, now);
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: windowKey(name, key, window.start),
        UpdateExpression: 'ADD #count :one SET expires_at = :ttl',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':one': 1, ':limit': window.limit, ':ttl': window.end + 60 },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) {
      count(METRIC.lockouts);
      await auditFirstRefusal(name, key, window.start, caller);
      throw throttled(window.retryAfter);
    }
    throw error;
  }
}

/** Gives back one use counted by `consume` (a reservation that turned out not to be a failure). */
export async function release(name: LimitName, key: string, now = Date.now()): Promise<void> {
  await giveBackOne(windowKey(name, key, windowOf(name, now).start));
}

/** One count back to a window counter; nothing when the window rolled over or expired meanwhile. */
export async function giveBackOne(windowItemKey: Record<string, unknown>): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: windowItemKey,
        UpdateExpression: 'ADD #count :minus',
        ConditionExpression: '#count > :zero',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      }),
    );
  } catch (error) {
    // The window rolled over since the reservation: nothing left to give back.
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/**
 * Runs `send`, for which one use of each of `names` was counted for `key`. When it fails nothing
 * went out, so the uses are given back: the learner may ask again at once.
 */
export async function givingBackOnFailure<T>(names: readonly LimitName[], key: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    for (const name of names) await release(name, key);
    throw error;
  }
}

async function auditFirstRefusal(name: LimitName, key: string, windowStart: number, caller?: Caller): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: windowKey(name, key, windowStart),
        UpdateExpression: 'SET refusal_audited = :true',
        ConditionExpression: 'attribute_not_exists(refusal_audited)',
        ExpressionAttributeValues: { ':true': true },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return; // already in the log for this window
    throw error;
  }
  await writeAudit({
    action: 'security.throttled',
    entityType: 'rate_limit',
    entityId: name,
    // An IP scope names the address block; any other key (an email, an account id) only as a keyed hash.
    newValues: {
      limit: name,
      window_start: new Date(windowStart * 1000).toISOString(),
      key: isIpScope(name) ? scopeKey(name, key) : await auditEmailHash(key),
    },
    ip: caller?.ip,
    userAgent: caller?.userAgent,
  });
}

/** Like `consume`, but answers true/false instead of throwing (a silent limit). */
export async function tryConsume(name: LimitName, key: string, caller?: Caller, now = Date.now()): Promise<boolean> {
  try {
    await consume(name, key, caller, now);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'throttled') return false;
    throw error;
  }
}

/** Refuses when the window is already full, without counting this call (a reservation is counted by `consume`). */
export async function assertNotExhausted(name: LimitName, key: string, now = Date.now()): Promise<void> {
  const window = windowOf(name, now);
  const found = await db().send(new GetCommand({ TableName: tableName(), Key: windowKey(name, key, window.start), ConsistentRead: true }));
  if (Number(found.Item?.count ?? 0) >= window.limit) {
    count(METRIC.lockouts);
    throw throttled(window.retryAfter);
  }
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
 * Where a login attempt comes from, for the backoff (docs/security.md#sign-in-a-stranger-cannot-lock-the-owner-out-guessing-stays-bounded): a trusted device of
 * the account (`device:<id>`) or else the caller's address block (`ip:<key>`). The backoff is
 * kept per account *and* source, so a stranger's failures slow down only that stranger.
 */
export const loginSource = (caller: Caller, deviceId?: string) => (deviceId ? `device:${deviceId}` : `ip:${ipRateKey(caller.ip)}`);

export interface LoginReservation {
  /** Failures counted so far for this account and source, this attempt included. */
  failures: number;
  /** The password was right: give every counted failure back and clear the backoff. */
  release: () => Promise<void>;
}

export class LoginThrottled extends Error {
  constructor(
    readonly reason: 'ip' | 'account' | 'backoff',
    readonly retryAfter: number,
  ) {
    super(`login throttled (${reason})`);
  }
}

/**
 * Reserves one login attempt before the password is checked (docs/security.md#edge-and-api-throttles): the attempt is counted as a
 * failure in every window it belongs to — per IP (unless from a trusted device), per account (trusted or not), and the
 * account+source backoff — each with a conditional write, so parallel guesses cannot get past
 * a limit. A right password releases the reservation. Throws LoginThrottled when any window is
 * full or the backoff has not elapsed (after giving back what it had already reserved).
 */
export async function reserveLoginAttempt(
  email: string,
  source: string,
  trusted: boolean,
  caller: Caller,
  now = Date.now(),
): Promise<LoginReservation> {
  const accountLimit: LimitName = trusted ? 'loginFailuresPerAccountTrusted' : 'loginFailuresPerAccount';
  // A trusted device has its own allowance (its account pool and backoff): strangers failing
  // behind the same shared address must not keep the owner's browser out.
  const windows: ReadonlyArray<readonly [LimitName, string, 'ip' | 'account']> = [
    ...(trusted ? [] : [['loginFailuresPerIp', caller.ip, 'ip'] as const]),
    [accountLimit, email, 'account'] as const,
  ];
  const taken: Array<[LimitName, string]> = [];
  const giveBack = async () => {
    for (const [name, key] of taken) await release(name, key, now);
  };
  try {
    for (const [name, key, reason] of windows) {
      try {
        await consume(name, key, caller, now);
      } catch (error) {
        if ((error as { code?: string }).code === 'throttled') throw new LoginThrottled(reason, windowOf(name, now).retryAfter);
        throw error;
      }
      taken.push([name, key]);
    }
    const failures = await reserveBackoff(email, source, now);
    return {
      failures,
      release: async () => {
        await giveBack();
        await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.loginBackoff(email, source) }));
      },
    };
  } catch (error) {
    await giveBack();
    throw error;
  }
}

/**
 * The backoff step of a reservation, as an optimistic conditional write on the state item:
 * refused while the wait runs, else counts the attempt and sets the wait the next one owes.
 * Two parallel attempts cannot both pass: the second one's condition sees the first's count.
 */
async function reserveBackoff(email: string, source: string, now: number): Promise<number> {
  const key = keys.loginBackoff(email, source);
  for (let attempt = 0; attempt < 5; attempt++) {
    const found = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
    const previous = Number(found.Item?.failures ?? 0);
    const nextAllowedAt = Number(found.Item?.next_allowed_at ?? 0);
    if (now < nextAllowedAt) {
      count(METRIC.loginBackoffs);
      throw new LoginThrottled('backoff', Math.ceil((nextAllowedAt - now) / 1000));
    }
    const failures = previous + 1;
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'SET failures = :failures, next_allowed_at = :next, expires_at = :ttl',
          ConditionExpression: previous ? 'failures = :previous' : 'attribute_not_exists(failures)',
          ExpressionAttributeValues: {
            ':failures': failures,
            ':next': now + backoffSeconds(failures) * 1000,
            ':ttl': Math.floor(now / 1000) + BACKOFF_MEMORY_SECONDS,
            ...(previous ? { ':previous': previous } : {}),
          },
        }),
      );
      return failures;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // another attempt of the same source won the write: read again
    }
  }
  throw new LoginThrottled('backoff', 1);
}
