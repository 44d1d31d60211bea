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
import { nowMs } from '../lib/clock';

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
const DAY = 24 * HOUR;
const defaults = {
  registerPerIp: { limit: 50, windowSeconds: HOUR },
  registerPerEmail: { limit: 10, windowSeconds: HOUR },
  /**
   * Registrations answered `already_registered` or `verification_pending` (the answer says the
   * address has an account) per address block (/56): bounds how fast one client can find out
   * which addresses are registered (functions/accounts/registration.ts).
   */
  registeredAnswersPerIp: { limit: 20, windowSeconds: HOUR },
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
  /**
   * Passwords tried at "Confirm it's you" per account (functions/accounts/reauthentication.ts): a
   * budget of its own, so a session thief who spends it cannot also block the owner's password
   * change, nor spend the change's budget to block "Sign out everywhere else".
   */
  reauthenticationsPerUser: { limit: 10, windowSeconds: HOUR },
  /**
   * Security notices per account (by its email): extra ones wait (deferred, functions/accounts/deferred-notices.ts)
   * and go out in a later hour; the request goes on.
   */
  securityNoticesPerAccount: { limit: 10, windowSeconds: HOUR },
  /**
   * Verification codes one registration (its email) is sent a day, the first one and every resend
   * or repeated registration: beyond it nothing is sent, silently, as for the resend limits.
   */
  verificationCodesPerDay: { limit: 10, windowSeconds: DAY },
  // The reserved share of the SES quota (docs/security.md#outbound-mail-budget): an account's
  // first mails of a kind each day, while its address block has reserved mails left, are never
  // refused by the product's global budget. Beyond these allowances a mail still goes out, from
  // the open share, which yields when the quota is near. Counted silently (nobody is refused here).
  /** Sign-in and restore codes of an account a day from the reserved share. */
  reservedSignInCodesPerAccount: { limit: 6, windowSeconds: DAY },
  /** Reset links of an account a day from the reserved share (strangers can ask for them: kept apart from the codes). */
  reservedResetLinksPerAccount: { limit: 3, windowSeconds: DAY },
  /** Security notices of an account a day from the reserved share (not tied to an address: the actor's address is not the owner's). */
  reservedNoticesPerAccount: { limit: 5, windowSeconds: DAY },
  /** Reserved sign-in codes and reset links a day per address block (IPv6 /56), whichever accounts they are for. */
  reservedMailsPerIp: { limit: 200, windowSeconds: DAY },
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
  'registeredAnswersPerIp',
  'codeResendPerIp',
  'loginFailuresPerIp',
  'resetRequestsPerIp',
  'reservedMailsPerIp',
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
export async function consume(name: LimitName, key: string, caller?: Caller, now = nowMs()): Promise<void> {
  await countUse(name, key, { item: windowKey(name, key, windowOf(name, now).start), counter: 'count' }, caller, now);
}

/** Where a use is counted: the window item and its counter attribute. */
export interface Counter {
  item: Record<string, unknown>;
  counter: string;
}

/** `consume` on a given counter (several limits may share one window item, each its own counter). */
async function countUse(name: LimitName, key: string, { item, counter }: Counter, caller?: Caller, now = nowMs()): Promise<void> {
  const window = windowOf(name, now);
  if (!(await addWithin({ item, counter }, window))) throw await refusal(name, key, window, caller);
}

/**
 * One use added to a window counter, unless it already holds the window's limit: false then
 * (nothing written). The item expires a minute after the window's end.
 */
export async function addWithin({ item, counter }: Counter, window: { limit: number; end: number }): Promise<boolean> {
  // a window of no uses: the condition below lets a first use through an item that does not exist yet
  if (window.limit <= 0) return false;
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: item,
        UpdateExpression: 'ADD #count :one SET expires_at = :ttl',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
        ExpressionAttributeNames: { '#count': counter },
        ExpressionAttributeValues: { ':one': 1, ':limit': window.limit, ':ttl': window.end + 60 },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** A full window's answer (429 with retry_after), its first refusal audited. */
async function refusal(name: LimitName, key: string, window: { start: number; retryAfter: number }, caller?: Caller) {
  count(METRIC.lockouts);
  await auditFirstRefusal(name, key, window.start, caller);
  return throttled(window.retryAfter);
}

/** Gives back one use counted by `consume` (a reservation that turned out not to be a failure). */
export async function release(name: LimitName, key: string, now = nowMs()): Promise<void> {
  await giveBackOne(windowKey(name, key, windowOf(name, now).start));
}

/** One count back to a window counter; nothing when the window rolled over or expired meanwhile. */
export async function giveBackOne(windowItemKey: Record<string, unknown>, counter = 'count'): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: windowItemKey,
        UpdateExpression: 'ADD #count :minus',
        ConditionExpression: '#count > :zero',
        ExpressionAttributeNames: { '#count': counter },
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
  return await undoneOnFailure(async () => {
    for (const name of names) await release(name, key);
  }, send);
}

/** Runs `send`; when it fails, `giveBack` (what was counted for it) runs before the error goes up. */
export async function undoneOnFailure<T>(giveBack: () => Promise<void>, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    await giveBack();
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

/**
 * Counts one use when the window has room and answers how to give it back; undefined (nothing
 * counted, nothing audited) when it is full. For allowances that sort mail rather than refuse
 * anyone (functions/accounts/mail-budget.ts).
 */
export async function takeIfRoom(name: LimitName, key: string, now = nowMs()): Promise<(() => Promise<void>) | undefined> {
  const window = windowOf(name, now);
  const item = windowKey(name, key, window.start);
  return (await addWithin({ item, counter: 'count' }, window)) ? () => giveBackOne(item) : undefined;
}

/** Like `consume`, but answers true/false instead of throwing (a silent limit). */
export async function tryConsume(name: LimitName, key: string, caller?: Caller, now = nowMs()): Promise<boolean> {
  try {
    await consume(name, key, caller, now);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'throttled') return false;
    throw error;
  }
}

/** Refuses when the window is already full, without counting this call (a reservation is counted by `consume`). */
export async function assertNotExhausted(name: LimitName, key: string, now = nowMs()): Promise<void> {
  const window = windowOf(name, now);
  const found = await db().send(new GetCommand({ TableName: tableName(), Key: windowKey(name, key, window.start), ConsistentRead: true }));
  if (Number(found.Item?.count ?? 0) >= window.limit) {
    count(METRIC.lockouts);
    throw throttled(window.retryAfter);
  }
}

/**
 * Refuses (429 `throttled`, the first refusal of a window audited as by `consume`) when the
 * window is already full, without counting this call: for a limit whose use is known only once
 * the request's outcome is, and whose refusal must not depend on that outcome ({@link countAnyway}).
 */
export async function assertWindowOpen(name: LimitName, key: string, caller?: Caller, now = nowMs()): Promise<void> {
  const found = await db().send(
    new GetCommand({ TableName: tableName(), Key: windowKey(name, key, windowOf(name, now).start), ConsistentRead: true }),
  );
  await assertRoomIn(name, key, found.Item ? [found.Item] : [], caller, now);
}

/**
 * Counts one use, never refusing: the request was let through by {@link assertWindowOpen}
 * before its outcome was known, and refusing now would tell that outcome. Requests that passed
 * the check in the same instant are all counted, so the window may end a burst's width above
 * its limit; the next request is refused.
 */
export async function countAnyway(name: LimitName, key: string, now = nowMs()): Promise<void> {
  const window = windowOf(name, now);
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: windowKey(name, key, window.start),
      UpdateExpression: 'ADD #count :one SET expires_at = :ttl',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':one': 1, ':ttl': window.end + 60 },
    }),
  );
}

/** The item a limit counts `key` in now: read it with the other items a request needs, then {@link assertRoomIn}. */
export const currentWindowKey = (name: LimitName, key: string, now = nowMs()) => windowKey(name, key, windowOf(name, now).start);

const sameKey = (item: Record<string, unknown>, key: Record<string, unknown>) => item.pk === key.pk && item.sk === key.sk;

/**
 * Refuses (429 `throttled`, the first refusal of a window audited as by `consume`) when the
 * window item among `read` (from {@link currentWindowKey}) is already full; writes nothing when
 * it has room. For limits that count only failures: checked on the read, counted by `consume`
 * once the request failed.
 */
export async function assertRoomIn(
  name: LimitName,
  key: string,
  read: ReadonlyArray<Record<string, unknown>>,
  caller?: Caller,
  now = nowMs(),
): Promise<void> {
  const window = windowOf(name, now);
  const item = read.find((found) => sameKey(found, windowKey(name, key, window.start)));
  if (Number(item?.count ?? 0) < window.limit) return;
  throw await refusal(name, key, window, caller);
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

export interface LoginAttempt {
  /** The password was wrong: counts the failure (per address, back-off) and answers how many the source has now. */
  failed: () => Promise<number>;
  /** The password was right and no challenge opens: gives the account pool's reservation back, clears a back-off the source had. */
  succeeded: () => Promise<void>;
  /**
   * The password was right and a challenge (a login-code mail) opens for the account: as
   * `succeeded`, with the challenge counted in the same write (loginChallengesPerAccount, 429
   * `throttled` when the hour's are used up). Answers how to give the challenge back when its
   * mail could not be sent.
   */
  openingChallenge: () => Promise<() => Promise<void>>;
}

export class LoginThrottled extends Error {
  constructor(
    readonly reason: 'ip' | 'account' | 'backoff',
    readonly retryAfter: number,
  ) {
    super(`login throttled (${reason})`);
  }
}

/** The items a login attempt's limits are read from (one BatchGetItem with the account, see {@link reserveLoginAttempt}). */
export function loginLimitKeys(email: string, source: string, trusted: boolean, ip: string, now = nowMs()): Array<Record<string, unknown>> {
  return [...(trusted ? [] : [currentWindowKey('loginFailuresPerIp', ip, now)]), keys.loginBackoff(email, source)];
}

/**
 * The account's sign-in item of the window (RATE#loginFailuresPerAccount#<email> / WINDOW#<start>):
 * both password pools, each its own counter (`count` for browsers the account does not know,
 * `trusted_count` for its trusted devices), and the challenges opened for the account
 * (`challenges`, loginChallengesPerAccount). On one item, a right password's give-back and the
 * count of the challenge it opens are one write. The item's window is the account pool's (an
 * hour, like the other two).
 */
const ACCOUNT_POOLS = { loginFailuresPerAccount: 'count', loginFailuresPerAccountTrusted: 'trusted_count' } as const;
const CHALLENGES = 'challenges';
type AccountPool = keyof typeof ACCOUNT_POOLS;
const accountSignInItem = (email: string, now: number) => currentWindowKey('loginFailuresPerAccount', email, now);

/**
 * Reserves one login attempt before the password is checked (docs/security.md#edge-and-api-throttles),
 * given the items of {@link loginLimitKeys} read with the account. Only the account's pool (90
 * failures an hour from unknown browsers, 10 from trusted devices) is reserved with a conditional
 * write before the check: it is the bound on how many passwords anyone can try against one
 * account, so a parallel burst from any number of addresses cannot pass it. The per-address pool
 * and the account+source back-off are checked on the items already read and written only when
 * the password turns out wrong (`failed`), each with a conditional write, so their counts never
 * overshoot and a burst member that finds them full meanwhile is answered 429. The race this
 * leaves: a burst that reads them in the same instant gets its passwords checked, at most its
 * own width beyond the address's pool or the back-off, each check still inside the account's
 * reserved pool. A right password gives the pool's count back in one write, which also counts
 * the challenge it opens (`openingChallenge`), and touches the back-off only when it had
 * failures. Throws LoginThrottled when a window is full or the back-off has not elapsed.
 */
export async function reserveLoginAttempt(
  email: string,
  source: string,
  trusted: boolean,
  caller: Caller,
  read: ReadonlyArray<Record<string, unknown>>,
  now = nowMs(),
): Promise<LoginAttempt> {
  const backoff = read.find((item) => sameKey(item, keys.loginBackoff(email, source)));
  const pool: AccountPool = trusted ? 'loginFailuresPerAccountTrusted' : 'loginFailuresPerAccount';
  const reserved: Counter = { item: accountSignInItem(email, now), counter: ACCOUNT_POOLS[pool] };
  if (!trusted)
    await asLoginThrottle('ip', 'loginFailuresPerIp', now, () => assertRoomIn('loginFailuresPerIp', caller.ip, read, caller, now));
  assertBackoffElapsed(backoff, now);
  await asLoginThrottle('account', pool, now, () => countUse(pool, email, reserved, caller, now));
  const clearBackoff = async () => {
    if (backoff) await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.loginBackoff(email, source) }));
  };
  return {
    failed: async () => {
      if (!trusted) await asLoginThrottle('ip', 'loginFailuresPerIp', now, () => consume('loginFailuresPerIp', caller.ip, caller, now));
      return countBackoffFailure(email, source, backoff, now);
    },
    succeeded: async () => {
      await giveBackOne(reserved.item, reserved.counter);
      await clearBackoff();
    },
    openingChallenge: async () => {
      await giveBackCountingChallenge(email, reserved, caller, now);
      await clearBackoff();
      return () => giveBackOne(reserved.item, CHALLENGES);
    },
  };
}

/**
 * One write on the account's sign-in item: the pool's reservation back and one challenge
 * counted, refused (nothing written) when the window's challenges are used up; then the
 * reservation alone goes back and the answer is 429. The reservation was counted moments ago
 * in the same window (`now`) and is given back once, so the pool's counter holds it: unlike
 * `giveBackOne`, no condition on it is needed (the item expires only a minute after its window
 * ends, long after this request).
 */
async function giveBackCountingChallenge(email: string, reserved: Counter, caller: Caller, now: number): Promise<void> {
  const window = windowOf('loginChallengesPerAccount', now);
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: reserved.item,
        UpdateExpression: 'ADD #pool :minus, #challenges :one',
        ConditionExpression: 'attribute_not_exists(#challenges) OR #challenges < :limit',
        ExpressionAttributeNames: { '#pool': reserved.counter, '#challenges': CHALLENGES },
        ExpressionAttributeValues: { ':minus': -1, ':one': 1, ':limit': window.limit },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    await giveBackOne(reserved.item, reserved.counter);
    throw await refusal('loginChallengesPerAccount', email, window, caller);
  }
}

/** Runs a limit's check or count, its 429 as a LoginThrottled of `reason`. */
async function asLoginThrottle(reason: LoginThrottled['reason'], name: LimitName, now: number, check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (error) {
    if ((error as { code?: string }).code === 'throttled') throw new LoginThrottled(reason, windowOf(name, now).retryAfter);
    throw error;
  }
}

/** The back-off state's wait, when it has not elapsed: LoginThrottled. */
function assertBackoffElapsed(state: Record<string, unknown> | undefined, now: number): void {
  const nextAllowedAt = Number(state?.next_allowed_at ?? 0);
  if (now < nextAllowedAt) {
    count(METRIC.loginBackoffs);
    throw new LoginThrottled('backoff', Math.ceil((nextAllowedAt - now) / 1000));
  }
}

/**
 * The back-off's count of a failed attempt, as an optimistic conditional write on the state item
 * (`state` as read before the password was checked): counts the failure and sets the wait the
 * next attempt owes. When a parallel attempt of the same source wrote first, the state is read
 * again: its wait refuses this one (429), else this failure is counted on top.
 */
async function countBackoffFailure(
  email: string,
  source: string,
  state: Record<string, unknown> | undefined,
  now: number,
): Promise<number> {
  const key = keys.loginBackoff(email, source);
  let current = state;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (attempt > 0) {
      current = (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
      assertBackoffElapsed(current, now);
    }
    const previous = Number(current?.failures ?? 0);
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
