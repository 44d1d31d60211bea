import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { failedConditions, withWriteRetries } from '../lib/retry';
import { nowMs, nowIso } from '../lib/clock';

type TransactItem = NonNullable<TransactWriteCommand['input']['TransactItems']>[number];
import { CODE_LENGTH, CODE_MAX_ATTEMPTS, CODE_TTL_MINUTES } from '../../shared/constants';
import { db, tableName } from '../lib/db';
import { count, METRIC } from '../lib/metrics';
import { badRequest } from '../lib/errors';
import { ttlIn } from '../lib/table';

/**
 * One-time 6-digit codes (email verification, login 2FA) — docs/security.md: random digits, stored
 * only as an HMAC with a per-code salt, 10-minute life, single use, at most 5 wrong tries.
 * The item holding a code is given by its key (USER#/CODE#verify_email, CHALLENGE#<id>).
 */
export const CODE_TTL_SECONDS = CODE_TTL_MINUTES * 60;

export interface StoredCode {
  code_hash: string;
  code_salt: string;
  /** Seconds since the epoch; also the table's TTL attribute (DynamoDB deletes lazily, so it is checked too). */
  expires_at: number;
  attempts: number;
}

type Key = { pk: string; sk: string };

/** A code as people paste it ("957 831", "957-831"): spaces and dashes carry no meaning. */
export function normalizeCode(submitted: string): string {
  return submitted.replace(/[\s-]/g, '');
}

export function generateCode(): string {
  return String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
}

export function hashCode(code: string, salt: string): string {
  return createHmac('sha256', Buffer.from(salt, 'base64')).update(code).digest('base64');
}

/** A fresh code and what to store for it. */
export function newCode(now = nowMs()): { code: string; stored: StoredCode } {
  const code = generateCode();
  const salt = randomBytes(16).toString('base64');
  return { code, stored: { code_hash: hashCode(code, salt), code_salt: salt, expires_at: ttlIn(CODE_TTL_SECONDS, now), attempts: 0 } };
}

export type CodeCheck = 'ok' | 'wrong' | 'expired' | 'dead';

/** Pure decision on a submitted code; the caller records a wrong try or consumes the code. */
export function checkCode(stored: StoredCode, submitted: string, now = nowMs()): CodeCheck {
  if (Math.floor(now / 1000) >= stored.expires_at) return 'expired';
  if ((stored.attempts ?? 0) >= CODE_MAX_ATTEMPTS) return 'dead';
  if (!/^\d{6}$/.test(submitted)) return 'wrong';
  const expected = Buffer.from(stored.code_hash, 'base64');
  const actual = Buffer.from(hashCode(submitted, stored.code_salt), 'base64');
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? 'ok' : 'wrong';
}

/** Stores a new code at `key` (replacing any earlier one, which is dead from now on). */
export async function issueCode(key: Key, extra: Record<string, unknown> = {}): Promise<string> {
  const { code, stored } = newCode();
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...key, ...extra, ...stored, created_at: nowIso() } }));
  return code;
}

export type CodeFailureReason = 'wrong' | 'replaced' | 'expired' | 'used_up' | 'missing';
const FAILURE = Symbol('code failure');

/**
 * The one answer for every failed check (400 `invalid_code`); the reason rides along for the
 * audit log only (never sent). Every refusal counts as a wrong code (WrongCodes in
 * docs/runbook.md). `details` is what a login challenge may reveal (see ConsumeOptions).
 */
const invalidCode = (reason: CodeFailureReason = 'missing', item?: Record<string, unknown>, details?: Record<string, unknown>) => {
  count(METRIC.wrongCodes);
  // a sign-in code a newer one replaced has its own answer: that person holds the newer email too
  const code = reason === 'replaced' ? 'code_replaced' : 'invalid_code';
  return Object.assign(badRequest(code, details), {
    [FAILURE]: { reason, userId: typeof item?.user_id === 'string' && item.user_id ? item.user_id : undefined },
  });
};

/** Why a code check failed and whose code it was, when `error` came from `consumeCode`. */
export const codeFailureOf = (error: unknown): { reason: CodeFailureReason; userId?: string } | undefined =>
  (error as { [FAILURE]?: { reason: CodeFailureReason; userId?: string } } | null)?.[FAILURE];

/**
 * For a login challenge the caller has already proved the password, so the answer may say how
 * many tries are left and when the code is spent (docs/product.md#10-journeys). Email verification keeps
 * the one generic answer: there an unknown address must look like a known one.
 */
const attemptsDetails = (attemptsLeft: number) => (attemptsLeft > 0 ? { attempts_left: attemptsLeft } : { attempts_left: 0, spent: true });

/** How a code a newer one replaced is kept on the newer challenge: hashed as the code itself was. */
export type ReplacedCode = Pick<StoredCode, 'code_hash' | 'code_salt'>;
/** The last few codes a resend replaced (five resends an hour at most; older ones say "wrong"). */
export const REPLACED_CODES_KEPT = 5;

/** What a new challenge keeps of the one it replaces: that one's code first, then what it kept. */
export function replacedCodesOf(previous: Record<string, unknown>): ReplacedCode[] {
  const kept = Array.isArray(previous.replaced_codes) ? (previous.replaced_codes as ReplacedCode[]) : [];
  const own = typeof previous.code_hash === 'string' && typeof previous.code_salt === 'string';
  return [...(own ? [{ code_hash: previous.code_hash as string, code_salt: previous.code_salt as string }] : []), ...kept].slice(
    0,
    REPLACED_CODES_KEPT,
  );
}

/** Whether `submitted` is one of the codes the item says a newer one replaced. */
function isReplacedCode(item: Record<string, unknown>, submitted: string): boolean {
  if (!Array.isArray(item.replaced_codes) || !/^\d{6}$/.test(submitted)) return false;
  return (item.replaced_codes as ReplacedCode[]).some((old) => {
    const expected = Buffer.from(String(old.code_hash), 'base64');
    const actual = Buffer.from(hashCode(submitted, String(old.code_salt)), 'base64');
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  });
}

export interface ConsumeOptions {
  /** Add `attempts_left` (and `spent: true` once the code can no longer work) to the 400. */
  revealAttempts?: boolean;
  /**
   * Writes that must happen with the consumption or not at all (verify-email marks the account
   * verified): one transaction, retried on conflicts, so a failed write never spends the code.
   * They may depend on what the code item carries (a re-registration's pending names). A
   * cancellation by one of these writes' conditions is rethrown for the caller to decide.
   */
  alongWith?: TransactItem[] | ((item: Record<string, unknown>) => TransactItem[]);
  /**
   * Runs once the code's item is found, before the code is compared: a limit that must count this
   * try whatever its outcome (a sign-in challenge's per-account budget of tries). What it throws
   * is the answer.
   */
  beforeCheck?: (item: Record<string, unknown>) => Promise<void>;
  /**
   * Count this try on the code's item before the code is compared, in the write that reads it (an
   * UpdateItem returning the item): parallel tries of one code never compare more than
   * CODE_MAX_ATTEMPTS codes, and a wrong try needs no second write.
   */
  reserveTry?: boolean;
}

type CodeItem = StoredCode & Record<string, unknown>;

/** The code's item with this try counted on it (`attempts` then includes it: `reserved`), or a used-up or missing code as it is. */
async function withTryReserved(key: Key): Promise<{ item?: CodeItem; reserved: boolean }> {
  try {
    const counted = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'ADD attempts :one',
        ConditionExpression: 'attribute_exists(code_hash) AND attempts < :max',
        ExpressionAttributeValues: { ':one': 1, ':max': CODE_MAX_ATTEMPTS },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { item: counted.Attributes as CodeItem, reserved: true };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    // missing, or its tries are used up: read to tell which (a refusal, not the sign-in's path)
    const found = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
    return { item: found.Item as CodeItem | undefined, reserved: false };
  }
}

/**
 * Checks and, when right, consumes the code at `key`; returns the stored item (with the
 * caller's extra attributes). Wrong, expired, dead, missing or already used: 400 `invalid_code`,
 * one answer for all so nothing is learned from it (unless `revealAttempts`).
 */
export async function consumeCode(
  key: Key,
  submitted: string,
  /** An extra check on the item (e.g. the challenge belongs to this email); failing it counts as a wrong try. */
  belongs: (item: Record<string, unknown>) => boolean = () => true,
  options: ConsumeOptions = {},
): Promise<Record<string, unknown>> {
  const { item, reserved } = options.reserveTry
    ? await withTryReserved(key)
    : {
        item: (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item as CodeItem | undefined,
        reserved: false,
      };
  const spent = (reason: CodeFailureReason) => invalidCode(reason, item, options.revealAttempts ? attemptsDetails(0) : undefined);
  if (!item) throw spent('missing');
  await options.beforeCheck?.(item);
  // a reserved try is on the item already: the tries before it decide whether the code still works
  let verdict = checkCode(reserved ? { ...item, attempts: Number(item.attempts) - 1 } : item, submitted);
  if (verdict === 'ok' && !belongs(item)) verdict = 'wrong';
  if (verdict === 'expired' || verdict === 'dead') throw spent(verdict === 'dead' ? 'used_up' : 'expired');
  try {
    if (verdict === 'wrong') {
      // Counted only against this very code (a newer code starts again at 0 tries); a reserved try already is.
      const attempts: unknown = reserved
        ? item.attempts
        : (
            await db().send(
              new UpdateCommand({
                TableName: tableName(),
                Key: key,
                UpdateExpression: 'ADD attempts :one',
                ConditionExpression: 'code_hash = :hash',
                ExpressionAttributeValues: { ':one': 1, ':hash': item.code_hash },
                ReturnValues: 'UPDATED_NEW',
              }),
            )
          ).Attributes?.attempts;
      const left = Math.max(0, CODE_MAX_ATTEMPTS - Number(attempts ?? CODE_MAX_ATTEMPTS));
      // Still a wrong try (it counts like any other), but told apart when the details may be revealed.
      const reason = options.revealAttempts && isReplacedCode(item, submitted) ? 'replaced' : 'wrong';
      throw invalidCode(reason, item, options.revealAttempts ? attemptsDetails(left) : undefined);
    }
    // Single use even under concurrent checks: only one conditional delete can succeed.
    const consume = {
      TableName: tableName(),
      Key: key,
      // this try included when it was reserved
      ConditionExpression: reserved ? 'code_hash = :hash AND attempts <= :max' : 'code_hash = :hash AND attempts < :max',
      ExpressionAttributeValues: { ':hash': item.code_hash, ':max': CODE_MAX_ATTEMPTS },
    };
    const writes = typeof options.alongWith === 'function' ? options.alongWith(item) : (options.alongWith ?? []);
    if (writes.length) {
      await withWriteRetries(() => db().send(new TransactWriteCommand({ TransactItems: [{ Delete: consume }, ...writes] })));
    } else {
      await db().send(new DeleteCommand(consume));
    }
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException || failedConditions(error).includes(0)) throw spent('used_up');
    throw error;
  }
  return item;
}
