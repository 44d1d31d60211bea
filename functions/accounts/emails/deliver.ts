import { ApiError } from '../../lib/errors';
import { logger } from '../../lib/logger';
import { sendEmail, type Delivery, type EmailMessage } from '../../lib/email';

/** SES answers meaning "this message will not go out" (as opposed to "try again later"). */
const REJECTIONS = new Set([
  'MessageRejected',
  'MailFromDomainNotVerifiedException',
  'AccountSendingPausedException',
  'ConfigurationSetSendingPausedException',
]);

/**
 * Sends an account email; an SES failure becomes a clean typed error instead of a 500:
 * 502 `email_rejected` when SES refuses the message, 503 `email_unavailable` (Retry-After) when
 * it is throttling or down (the SDK has already retried).
 */
export async function deliver(message: EmailMessage): Promise<Delivery> {
  try {
    return await sendEmail(message);
  } catch (error) {
    const name = (error as Error)?.name ?? 'Error';
    logger.error('email send failed', { error_name: name, subject: message.subject });
    if (REJECTIONS.has(name)) throw new ApiError(502, 'email_rejected');
    throw new ApiError(503, 'email_unavailable', {}, { 'Retry-After': '60' });
  }
}
