import type { EmailMessage } from '../../lib/email';
import { codeEmail } from './code-email';

/**
 * The email-verification code sent after registration (and on a repeated registration, or to a
 * new address an admin set). The address is not confirmed yet, so whoever registered may not own
 * it: the email holds no text they typed, not even the name (docs/security.md#registration-of-an-unverified-address-and-what-mail-carries).
 */
export const verificationCodeEmail = (to: string, code: string): EmailMessage =>
  codeEmail({
    to,
    code,
    subject: 'Verify your email',
    codeName: 'verification code',
    footnote: 'If you did not register for the 4-Week Career Program, you can ignore this email.',
  });
