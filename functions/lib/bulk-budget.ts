import { config } from './config';
import { sesAccount } from './email';

/**
 * What bulk mail may take of the SES account (docs/scale-writes.md#two-mail-streams). Both
 * streams share one account: its send rate and its rolling 24-hour quota. Bulk takes at most
 * BULK_SEND_SHARE percent of each, so transactional mail (sign-in codes above all) always has
 * the rest and never queues behind reminders: bulk is the first to yield when the quota is near
 * (docs/security.md#outbound-mail-budget).
 */
export interface BulkBudget {
  /** Emails per second one of `workers` may send. */
  ratePerSecond: number;
  /** Emails one of `workers` may still send before the quota kept for transactional mail is touched. */
  mails: number;
}

/** The quota is spent down to what is kept for transactional mail: bulk sends nothing more now. */
export class BulkShareSpentError extends Error {
  override readonly name = 'BulkShareSpent';
  constructor() {
    super('the bulk share of the SES quota is spent: the rest is kept for transactional mail');
  }
}

/**
 * Reads the account's limits and what it sent in the last 24 hours (SES GetAccount) and splits
 * the bulk share between `workers` running at once. Called at the start of every slice, so a
 * quota raised by AWS, or a busy day of sign-ins, is taken into account within minutes.
 */
export async function readBulkBudget(workers: number): Promise<BulkBudget> {
  // read now, not the figures the transactional budget keeps for minutes: a slice runs for minutes anyway
  const { maxSendRate, max24HourSend, sentLast24Hours } = await sesAccount(0);
  const share = config().bulkSendShare / 100;
  // The sends of both streams count: bulk stops where the mail kept for transactional begins.
  const left = Math.floor(max24HourSend * share - sentLast24Hours);
  return {
    ratePerSecond: (maxSendRate * share) / workers,
    mails: Math.max(0, Math.floor(left / workers)),
  };
}
