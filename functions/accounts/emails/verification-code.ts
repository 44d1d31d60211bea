import { CODE_TTL_MINUTES } from '../../../shared/constants';
import { emailLayout, escapeHtml, type EmailMessage } from '../../lib/email';

/** The email-verification code sent after registration (and on a repeated registration). */
export function verificationCodeEmail(to: string, firstName: string, code: string): EmailMessage {
  const subject = 'Verify your email';
  const text = [
    `Hello ${firstName},`,
    '',
    `Your verification code is ${code}.`,
    `It is valid for ${CODE_TTL_MINUTES} minutes and can be used once.`,
    '',
    'If you did not register for the 4-Week Career Program, you can ignore this email.',
  ].join('\n');
  const html = emailLayout(
    subject,
    `<p>Hello ${escapeHtml(firstName)},</p>
<p>Your verification code is <strong style="font-size:22px;letter-spacing:4px">${escapeHtml(code)}</strong>.</p>
<p>It is valid for ${CODE_TTL_MINUTES} minutes and can be used once.</p>
<p>If you did not register for the 4-Week Career Program, you can ignore this email.</p>`,
  );
  return { to, subject, text, html };
}
