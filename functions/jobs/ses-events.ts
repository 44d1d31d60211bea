import type { SNSEvent } from 'aws-lambda';
import { isEmailSuppressed, markEmailSuppressed } from '../lib/email-suppression';
import { logger } from '../lib/logger';
import { count, METRIC, metrics } from '../lib/metrics';
import type { EmailSuppression } from '../lib/user-record';
import { getUserByEmail, normalizeEmail } from '../lib/users';

/**
 * SES bounce and complaint handler. Every email goes out with the stack's SES configuration set,
 * whose event destination publishes Bounce and Complaint events to an SNS topic that invokes
 * this function (infra/constructs/mail-events.ts). Record shapes are SES's documented event
 * publishing JSON (`eventType`); identity feedback notifications (`notificationType`) are read
 * the same way, so either wiring works.
 *
 * A permanent (hard) bounce marks the account "bounce", a complaint marks it "complaint"
 * (functions/lib/email-suppression.ts); transient bounces (mailbox full, greylisting) mark
 * nothing. Unknown addresses are counted and logged only. A DynamoDB failure throws: Lambda
 * retries the SNS delivery, and marking again is harmless.
 */
export interface SesMailEvent {
  eventType?: string;
  notificationType?: string;
  bounce?: { bounceType?: string; bounceSubType?: string; bouncedRecipients?: Array<{ emailAddress?: string }> };
  complaint?: { complainedRecipients?: Array<{ emailAddress?: string }>; complaintFeedbackType?: string };
  mail?: { messageId?: string };
}

export interface SesEventsSummary {
  bounced: number;
  complained: number;
  marked: number;
  ignored: number;
}

/** `"Name" <a@b.c>` or `a@b.c` → `a@b.c`, lower-cased. */
function addressOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const angle = /<([^>]+)>/.exec(value);
  const address = normalizeEmail(angle ? angle[1] : value);
  return address.includes('@') ? address : undefined;
}

/** What a record asks for: which addresses to mark and why; empty when nothing is to be done. */
export function suppressionsOf(event: SesMailEvent): { reason: EmailSuppression; addresses: string[] } | undefined {
  const type = event.eventType ?? event.notificationType;
  if (type === 'Bounce' && event.bounce?.bounceType === 'Permanent') {
    return {
      reason: 'bounce',
      addresses: (event.bounce.bouncedRecipients ?? []).map((r) => addressOf(r.emailAddress)).filter((a): a is string => !!a),
    };
  }
  if (type === 'Complaint') {
    return {
      reason: 'complaint',
      addresses: (event.complaint?.complainedRecipients ?? []).map((r) => addressOf(r.emailAddress)).filter((a): a is string => !!a),
    };
  }
  return undefined;
}

export async function handleSesEvents(event: SNSEvent): Promise<SesEventsSummary> {
  const summary: SesEventsSummary = { bounced: 0, complained: 0, marked: 0, ignored: 0 };
  for (const record of event.Records ?? []) {
    let parsed: SesMailEvent;
    try {
      parsed = JSON.parse(record.Sns.Message) as SesMailEvent;
    } catch {
      logger.warn('SES event is not JSON', { message_id: record.Sns.MessageId });
      summary.ignored += 1;
      continue;
    }
    const wanted = suppressionsOf(parsed);
    if (!wanted) {
      logger.info('SES event needs no action', {
        event_type: parsed.eventType ?? parsed.notificationType,
        bounce_type: parsed.bounce?.bounceType,
      });
      summary.ignored += 1;
      continue;
    }
    for (const address of wanted.addresses) {
      if (wanted.reason === 'bounce') {
        summary.bounced += 1;
        count(METRIC.emailsBounced);
      } else {
        summary.complained += 1;
        count(METRIC.emailsComplained);
      }
      const user = await getUserByEmail(address);
      if (!user) {
        logger.info('SES event for an address without an account', { reason: wanted.reason, ses_message_id: parsed.mail?.messageId });
        continue;
      }
      const changed = await markEmailSuppressed(user, wanted.reason);
      if (changed) summary.marked += 1;
      logger.info('email suppression', { user_id: user.id, reason: wanted.reason, changed, was_suppressed: isEmailSuppressed(user) });
    }
  }
  return summary;
}

export const handler = async (event: SNSEvent): Promise<SesEventsSummary> => {
  try {
    const summary = await handleSesEvents(event);
    logger.info('ses events', { ...summary });
    return summary;
  } finally {
    metrics.publishStoredMetrics();
  }
};
