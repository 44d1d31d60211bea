import { randomInt } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db';
import { ApiError } from '../lib/errors';
import { logger } from '../lib/logger';
import { count, METRIC } from '../lib/metrics';
import { keys } from '../lib/table';
import { giveBackOne } from './rate-limit';
import { nowMs } from '../lib/clock';

/** The account mails, each with its own hourly budget (docs/security.md#outbound-mail-budget). */
export type MailKind = 'verification' | 'login_code' | 'restore_code' | 'password_reset' | 'security_notice';

const HOUR = 3600;
/**
 * Mails of one kind the whole product sends in an hour at most: far above a busy hour of real
 * use, far below the SES quota, so a script that gets past every per-account and per-IP limit
 * still cannot spend the quota that sign-in codes need.
 */
const defaults: Record<MailKind, number> = {
  verification: 2000,
  login_code: 5000,
  restore_code: 500,
  password_reset: 1000,
  security_notice: 3000,
};
export const mailBudgets: Record<MailKind, number> = { ...defaults };

/** Tests lower budgets to reach them quickly; called with nothing it restores the defaults. */
export function configureMailBudgets(overrides: Partial<Record<MailKind, number>> = {}): void {
  Object.assign(mailBudgets, defaults, overrides);
}

/**
 * The budget is split over this many counters (RATE#mail_budget#<kind>#<shard>), each a
 * share of it: a burst of sign-ins writes to several items, never to one hot item.
 */
const SHARDS = 8;

/**
 * Takes one mail of `kind` from this hour's budget: a random shard, and its neighbour when that
 * one is full (shards fill unevenly). Throws 503 `email_unavailable` (Retry-After: the hour's
 * end) when both are full, counting MailBudgetExhausted for the alarm. Answers how to give the
 * mail back: a send SES refuses spent nothing.
 */
export async function takeFromMailBudget(kind: MailKind, now = nowMs()): Promise<() => Promise<void>> {
  const budget = mailBudgets[kind];
  const shards = Math.max(1, Math.min(SHARDS, budget));
  const perShard = Math.ceil(budget / shards);
  const nowSeconds = Math.floor(now / 1000);
  const start = nowSeconds - (nowSeconds % HOUR);
  const first = randomInt(shards);
  for (const shard of new Set([first, (first + 1) % shards])) {
    try {
      const key = keys.rateWindow('mail_budget', `${kind}#${shard}`, start);
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'ADD #count :one SET expires_at = :ttl',
          ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':one': 1, ':limit': perShard, ':ttl': start + HOUR + 60 },
        }),
      );
      return () => giveBackOne(key);
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
  count(METRIC.mailBudgetExhausted);
  logger.warn('mail budget exhausted', { kind, budget });
  throw new ApiError(503, 'email_unavailable', {}, { 'Retry-After': String(Math.max(1, start + HOUR - nowSeconds)) });
}
