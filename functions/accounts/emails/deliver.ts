import { ApiError } from '../../lib/errors';
import { logger } from '../../lib/logger';
import { sendEmail, type Delivery, type EmailMessage } from '../../lib/email';
import { takeFromMailBudget, type MailKind, type MailSender } from '../mail-budget';

/**
 * SES v2 answers meaning "this message will not go out" (as opposed to "try again later"):
 * refused content or address (`MessageRejected`, `BadRequestException`), an unverified sending
 * domain, a missing configuration set (`NotFoundException`), sending paused or suspended.
 * Throttling (`TooManyRequestsException`), a spent daily quota (`LimitExceededException`) and
 * outages clear by themselves.
 */
const REJECTIONS = new Set([
  'MessageRejected',
  'BadRequestException',
  'MailFromDomainNotVerifiedException',
  'NotFoundException',
  'SendingPausedException',
  'AccountSuspendedException',
]);

/**
 * Sends an account email; an SES failure becomes a clean typed error instead of a 500:
 * 502 `email_rejected` when SES refuses the message, 503 `email_unavailable` (Retry-After) when
 * it is throttling, out of daily quota or down (the SDK has already retried what can clear).
 * Each mail is first taken from the mail budget for its sender (../mail-budget.ts: 503
 * `email_unavailable` when the open share is used up) and given back when it does not go out.
 */
export async function deliver(message: EmailMessage, kind: MailKind, sender: MailSender): Promise<Delivery> {
  const giveBack = await takeFromMailBudget(kind, sender);
  try {
    return await sendEmail(message);
  } catch (error) {
    await giveBack();
    const name = (error as Error)?.name ?? 'Error';
    // The SDK's attempts tell a throttled send it retried (3) from one it gave up on at once (1).
    const attempts = (error as { $metadata?: { attempts?: number } })?.$metadata?.attempts;
    logger.error('email send failed', { error_name: name, attempts, subject: message.subject });
    if (REJECTIONS.has(name)) throw new ApiError(502, 'email_rejected');
    throw new ApiError(503, 'email_unavailable', {}, { 'Retry-After': '60' });
  }
}
