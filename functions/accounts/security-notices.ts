import { appUrl } from '../lib/app-url';
import { deviceLabel } from '../lib/device-label';
import { logger } from '../lib/logger';
import { count, METRIC } from '../lib/metrics';
import type { UserRecord } from '../lib/user-record';
import type { Caller } from '../lib/caller';
import { deliver } from './emails/deliver';
import { securityNoticeEmail, type SecurityEvent } from './emails/security-notice';
import { tryConsume } from './rate-limit';
import { currentDate } from '../lib/clock';

/**
 * Sends a security notice (docs/security.md#account-security-center). The change it reports has already
 * happened: a mail failure is logged and does not turn the request into an error. An account gets
 * at most `securityNoticesPerAccount` notices an hour: more are dropped (and counted), so a
 * script repeating a noticed action cannot turn the account's mailbox, or the mail budget, into
 * its target.
 */
export async function sendSecurityNotice(
  // time_zone: the learner's zone for the time the notice gives (absent: UTC)
  user: Pick<UserRecord, 'email' | 'first_name'> & { time_zone?: string },
  event: SecurityEvent,
  caller: Caller,
  detail: { to?: string; passkeyName?: string; otherEmail?: string; removalLink?: string } = {},
): Promise<void> {
  try {
    if (!(await tryConsume('securityNoticesPerAccount', user.email, caller))) {
      count(METRIC.securityNoticesDropped);
      logger.warn('security notice dropped: the account had its notices for the hour', { event });
      return;
    }
    await deliver(
      securityNoticeEmail({
        to: detail.to ?? user.email,
        firstName: user.first_name,
        event,
        at: currentDate(),
        timeZone: user.time_zone,
        settingsLink: `${await appUrl()}/settings`,
        device: deviceLabel(caller.userAgent),
        ip: caller.ip,
        resetLink: `${await appUrl()}/forgot-password`,
        removalLink: detail.removalLink,
        passkeyName: detail.passkeyName,
        otherEmail: detail.otherEmail,
      }),
      'security_notice',
    );
  } catch (error) {
    logger.error('security notice failed', { event, error_name: (error as Error)?.name });
  }
}
