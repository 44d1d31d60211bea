import type { EmailMessage } from '../../lib/email';
import { codeEmail } from './code-email';

/** The email-verification code sent after registration (and on a repeated registration). */
export const verificationCodeEmail = (to: string, firstName: string, code: string): EmailMessage =>
  codeEmail({
    to,
    firstName,
    code,
    subject: 'Verify your email',
    codeName: 'verification code',
    footnote: 'If you did not register for the 4-Week Career Program, you can ignore this email.',
  });
