import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { appUrl } from '../lib/app-url';
import { db, tableName } from '../lib/db';
import { deviceLabel } from '../lib/device-label';
import { ApiError } from '../lib/errors';
import { logger } from '../lib/logger';
import { count, METRIC } from '../lib/metrics';
import { keys, ttlIn } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import type { Caller } from '../lib/caller';
import { deliver } from './emails/deliver';
import { securityNoticeEmail, type SecurityEvent } from './emails/security-notice';
import { passkeyRemovalLink } from './passkey-removal-link';
import { release, tryConsume } from './rate-limit';
import { nowIso } from '../lib/clock';

/** The account a notice is about: its address, name and time zone (absent: UTC) as the notice uses them. */
export type NoticeAccount = Pick<UserRecord, 'id' | 'email' | 'first_name'> & { time_zone?: string };

/** A notice as it was asked for: what happened, when and from where; sent now or, deferred, later. */
export interface NoticeRequest {
  event: SecurityEvent;
  /** When the change happened (ISO): a deferred notice still says when. */
  at: string;
  ip: string;
  /** A readable device label of the browser that made the change. */
  device: string;
  /** Another recipient than the account's address (the old address of an email change; a deferred notice: the address at the change). */
  to?: string;
  passkeyName?: string;
  otherEmail?: string;
  /** `passkey_added`: the passkey its "this wasn't me" link removes (the link is signed when the notice is sent). */
  passkeyId?: string;
}

/** Days a deferred notice waits at most (its TTL); one older is counted and logged as dropped. */
export const DEFERRED_NOTICE_DAYS = 3;

/**
 * Sends a security notice (docs/security.md#account-security-center). The change it reports has
 * already happened: a mail failure does not turn the request into an error. A notice that cannot
 * go out now is never dropped: it is deferred (NOTICE#deferred, counted as SecurityNoticesDeferred)
 * and the hourly job sends it (./deferred-notices.ts). That is the case when the account already
 * had `securityNoticesPerAccount` notices this hour (a script repeating a noticed action cannot
 * flood the mailbox), when the mail budget's open share is used up, or when SES does not send
 * (throttled, out of quota, down). Only a mail SES refuses for good (a rejected address) is logged
 * and not kept.
 */
export async function sendSecurityNotice(
  user: NoticeAccount,
  event: SecurityEvent,
  caller: Caller,
  detail: { to?: string; passkeyName?: string; otherEmail?: string; passkeyId?: string } = {},
): Promise<void> {
  const notice: NoticeRequest = { event, at: nowIso(), ip: caller.ip, device: deviceLabel(caller.userAgent), ...detail };
  try {
    if (!(await tryConsume('securityNoticesPerAccount', user.email, caller))) return await deferNotice(user, notice, 'account_hour');
    await deliverNotice(user, notice);
  } catch (error) {
    if (isUnavailable(error)) {
      // not sent: the hour's count goes back, the job's send counts it again
      await release('securityNoticesPerAccount', user.email).catch(() => undefined);
      return await deferNotice(user, notice, 'mail_unavailable');
    }
    logger.error('security notice failed', { event, error_name: (error as Error)?.name });
  }
}

/** The mail could not go out now (the budget's open share, SES throttling, quota or outage): it may later. */
export const isUnavailable = (error: unknown) => error instanceof ApiError && error.code === 'email_unavailable';

/** Composes and sends the notice, through the mail budget (a security notice of the account). */
export async function deliverNotice(user: NoticeAccount, notice: NoticeRequest): Promise<void> {
  const link = await appUrl();
  await deliver(
    securityNoticeEmail({
      to: notice.to ?? user.email,
      firstName: user.first_name,
      event: notice.event,
      at: new Date(notice.at),
      timeZone: user.time_zone,
      settingsLink: `${link}/settings`,
      device: notice.device,
      ip: notice.ip,
      resetLink: `${link}/forgot-password`,
      removalLink: notice.passkeyId ? await passkeyRemovalLink(user.id, notice.passkeyId) : undefined,
      passkeyName: notice.passkeyName,
      otherEmail: notice.otherEmail,
    }),
    'security_notice',
    { account: user.id },
  );
}

/**
 * Keeps the notice for the hourly job, for DEFERRED_NOTICE_DAYS: the account's id (its name and
 * time zone are read again when it is sent, and whether it still exists) and the request, with
 * the address the account had when the change happened (whoever held the account then is told,
 * even if its address changed since).
 */
async function deferNotice(user: NoticeAccount, notice: NoticeRequest, reason: 'account_hour' | 'mail_unavailable'): Promise<void> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.deferredNotice(nowIso(), randomUUID()),
          type: 'deferred_notice',
          user_id: user.id,
          notice: { ...notice, to: notice.to ?? user.email },
          reason,
          expires_at: ttlIn(DEFERRED_NOTICE_DAYS * 24 * 3600),
        },
      }),
    );
  } catch (error) {
    count(METRIC.securityNoticesDropped);
    logger.error('security notice lost: it could neither be sent nor deferred', {
      event: notice.event,
      error_name: (error as Error)?.name,
    });
    return;
  }
  count(METRIC.securityNoticesDeferred);
  logger.warn('security notice deferred', { event: notice.event, reason });
}
