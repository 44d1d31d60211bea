import { RESET_TOKEN_TTL_MINUTES } from '@shared/constants';
import { emailLayout, escapeHtml, type EmailMessage } from '../../lib/email';

/** A reset ends every way into the account that did not need the inbox (docs/security.md). */
const PASSKEYS_REMOVED = 'Choosing a new password also removes every passkey of your account.';

/**
 * The reset link (requested by the learner or sent by an administrator). An empty `firstName`
 * greets with a plain "Hello," (unverified accounts: docs/security.md#registration-of-an-unverified-address-and-what-mail-carries).
 */
export function passwordResetEmail(to: string, firstName: string, link: string): EmailMessage {
  const greeting = firstName ? `Hello ${firstName},` : 'Hello,';
  const subject = 'Reset your password';
  const hours = RESET_TOKEN_TTL_MINUTES / 60;
  const validity = `${hours} hour${hours === 1 ? '' : 's'}`;
  const text = [
    greeting,
    '',
    'Use this link to choose a new password:',
    link,
    '',
    `The link is valid for ${validity} and can be used once.`,
    PASSKEYS_REMOVED,
    'If you did not ask for a password reset, you can ignore this email: your password stays the same.',
  ].join('\n');
  const html = emailLayout(
    subject,
    `<p>${escapeHtml(greeting)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#2563eb;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">Choose a new password</a></p>
<p>Or paste this address into your browser: ${escapeHtml(link)}</p>
<p>The link is valid for ${validity} and can be used once.</p>
<p>${PASSKEYS_REMOVED}</p>
<p>If you did not ask for a password reset, you can ignore this email: your password stays the same.</p>`,
  );
  return { to, subject, text, html };
}
