import { randomInt } from 'node:crypto';
import { nowMs } from '../lib/clock';
import { config, type Config } from '../lib/config';
import { sesAccount } from '../lib/email';
import { ApiError } from '../lib/errors';
import { logger } from '../lib/logger';
import { count, METRIC } from '../lib/metrics';
import type { SesAccountFigures } from '../lib/ses-account';
import { keys } from '../lib/table';
import { addWithin, giveBackOne, takeIfRoom, type LimitName } from './rate-limit';

/**
 * The outbound mail budget (docs/security.md#outbound-mail-budget). Limits per principal come
 * first (per account, per address block, per registration: rate-limit.ts); the SES account's
 * own quota and send rate (GetAccount) are shared out between three classes of mail, so that
 * when the quota is near the mail that matters least yields first:
 *
 * 1. bulk (reminders) takes at most BULK_SEND_SHARE % of the rate and stops once that share of
 *    the 24-hour quota is used (functions/lib/bulk-budget.ts);
 * 2. open mail (verification codes, and any mail beyond its account's daily allowance) takes at
 *    most what bulk and the reserved share leave of the rate, and stops once the quota is used
 *    up to the reserved share (MAIL_RESERVED_SHARE %);
 * 3. reserved mail (an account's first sign-in codes, reset links and security notices of the
 *    day, within its address block's allowance) is never refused here: only SES itself refuses
 *    it, once the whole quota is spent.
 *
 * The many send a few mails a day each and are all reserved; a script with many accounts spends
 * its allowances in a few mails each and is then open mail, which the quota's reserved share is
 * kept from.
 */
export type MailKind = 'verification' | 'login_code' | 'restore_code' | 'password_reset' | 'security_notice';

/** Whom a mail counts against: its account, and the address block of the caller that asked for it (none: an administrator's action). */
export interface MailSender {
  account: string;
  ip?: string;
}

export type GiveBack = () => Promise<void>;

/** The daily allowance of reserved mail a kind draws from; verification codes have none (a registration is not yet an account anyone proved). */
const RESERVED_ALLOWANCE: Record<MailKind, LimitName | undefined> = {
  verification: undefined,
  login_code: 'reservedSignInCodesPerAccount',
  restore_code: 'reservedSignInCodesPerAccount',
  password_reset: 'reservedResetLinksPerAccount',
  security_notice: 'reservedNoticesPerAccount',
};
/** Kinds whose reserved mail also counts against the caller's address block; a notice does not (the actor's address is not the owner's). */
const BY_ADDRESS: ReadonlySet<MailKind> = new Set(['login_code', 'restore_code', 'password_reset']);

/** The open share is used up: 503 `email_unavailable` with Retry-After, `reason` saying which limit. */
export class MailBudgetRefused extends ApiError {
  constructor(
    readonly reason: 'quota' | 'rate',
    retryAfterSeconds: number,
  ) {
    super(503, 'email_unavailable', {}, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/**
 * Takes one mail of `kind` for `sender` from the budget: from the reserved share while the
 * account's (and, for codes and reset links, the address block's) daily allowance lasts, else
 * from the open share. Throws MailBudgetRefused when the open share is used up (counting
 * MailBudgetExhausted). Answers how to give the mail back: a send SES refuses spent nothing.
 */
export async function takeFromMailBudget(kind: MailKind, sender: MailSender, now = nowMs()): Promise<GiveBack> {
  return (await takeReserved(kind, sender, now)) ?? (await takeOpen(kind, now));
}

async function takeReserved(kind: MailKind, sender: MailSender, now: number): Promise<GiveBack | undefined> {
  const allowance = RESERVED_ALLOWANCE[kind];
  if (!allowance) return undefined;
  const fromAccount = await takeIfRoom(allowance, sender.account, now);
  if (!fromAccount || !BY_ADDRESS.has(kind) || !sender.ip) return fromAccount;
  const fromAddress = await takeIfRoom('reservedMailsPerIp', sender.ip, now);
  if (!fromAddress) {
    // the address block's allowance is spent: the account keeps its own for a mail that can be reserved
    await fromAccount();
    return undefined;
  }
  return async () => {
    await fromAccount();
    await fromAddress();
  };
}

/** The open share's limits from the account's figures and the stage's shares. */
export function openShare(account: Pick<SesAccountFigures, 'max24HourSend' | 'maxSendRate'>, cfg: Config = config()) {
  const rateShare = (100 - cfg.bulkSendShare - cfg.mailReservedShare) / 100;
  return {
    /** Open mail stops once this much of the 24-hour quota is used: the rest is the reserved share. */
    quotaUse: Math.floor((account.max24HourSend * (100 - cfg.mailReservedShare)) / 100),
    /** Open mails a minute: what bulk and the reserved share leave of the send rate (at least one, so a slow account sends at all). */
    perMinute: Math.max(1, Math.floor(account.maxSendRate * 60 * rateShare)),
  };
}

/** A refusal of the open share that clears when the quota's 24 hours move on: asked again in a minute. */
const QUOTA_RETRY_SECONDS = 60;
const MINUTE = 60;
/**
 * The minute's open mails are counted on up to this many items (RATE#mail_open#<shard> /
 * WINDOW#<minute>), each a share of them: a burst of registrations writes to several items, never
 * to one hot item. A shard holds at least PER_SHARD mails, so a small share stays on one item and
 * is exact (shards fill unevenly: the random one and its neighbour may be full while another has
 * room).
 */
const SHARDS = 8;
const PER_SHARD = 32;

async function takeOpen(kind: MailKind, now: number): Promise<GiveBack> {
  const account = await readAccount(kind);
  // GetAccount unreadable: no share can be worked out; SES itself still refuses past its limits.
  if (!account) return () => Promise.resolve();
  const { quotaUse, perMinute } = openShare(account);
  if (account.sentLast24Hours >= quotaUse)
    throw refused(kind, 'quota', QUOTA_RETRY_SECONDS, { used: account.sentLast24Hours, limit: quotaUse });
  const nowSeconds = Math.floor(now / 1000);
  const start = nowSeconds - (nowSeconds % MINUTE);
  const shards = Math.max(1, Math.min(SHARDS, Math.ceil(perMinute / PER_SHARD)));
  const window = { limit: Math.ceil(perMinute / shards), end: start + MINUTE };
  // a random shard, and its neighbour when that one is full (shards fill unevenly)
  const first = randomInt(shards);
  for (const shard of new Set([first, (first + 1) % shards])) {
    const item = keys.rateWindow('mail_open', String(shard), start);
    if (await addWithin({ item, counter: 'count' }, window)) return () => giveBackOne(item);
  }
  throw refused(kind, 'rate', Math.max(1, start + MINUTE - nowSeconds), { limit: perMinute });
}

async function readAccount(kind: MailKind): Promise<SesAccountFigures | undefined> {
  try {
    return await sesAccount();
  } catch (error) {
    logger.error('SES account unreadable: open mail goes out without its share', { kind, error_name: (error as Error)?.name });
    return undefined;
  }
}

function refused(kind: MailKind, reason: MailBudgetRefused['reason'], retryAfter: number, figures: Record<string, number>) {
  count(METRIC.mailBudgetExhausted);
  logger.warn('mail budget exhausted', { kind, reason, ...figures });
  return new MailBudgetRefused(reason, retryAfter);
}
