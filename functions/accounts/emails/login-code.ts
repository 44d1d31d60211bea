import { CODE_TTL_MINUTES } from '../../../shared/constants';
import { emailLayout, escapeHtml, type EmailMessage } from '../../lib/email';

/** The second sign-in step's code, sent once the password was accepted. */
export function loginCodeEmail(to: string, firstName: string, code: string): EmailMessage {
  const subject = 'Your login code';
  const text = [
    `Hello ${firstName},`,
    '',
    `Your login code is ${code}.`,
    `It is valid for ${CODE_TTL_MINUTES} minutes and can be used once.`,
    '',
    'If you did not try to log in, someone may know your password: change it in your account settings.',
  ].join('\n');
  const html = emailLayout(
    subject,
    `<p>Hello ${escapeHtml(firstName)},</p>
<p>Your login code is <strong style="font-size:22px;letter-spacing:4px">${escapeHtml(code)}</strong>.</p>
<p>It is valid for ${CODE_TTL_MINUTES} minutes and can be used once.</p>
<p>If you did not try to log in, someone may know your password: change it in your account settings.</p>`,
  );
  return { to, subject, text, html };
}
