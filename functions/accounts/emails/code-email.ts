import { CODE_TTL_MINUTES } from '@shared/constants';
import { emailLayout, escapeHtml, type EmailMessage } from '../../lib/email';

/**
 * A 6-digit code email (verification, sign-in): greeting, the code, its validity, a safety note.
 * Without `firstName` the greeting is a plain "Hello," (mail to an unconfirmed address carries no
 * text a stranger typed; docs/security.md#registration-of-an-unverified-address-and-what-mail-carries).
 */
export function codeEmail(input: {
  to: string;
  firstName?: string;
  code: string;
  subject: string;
  codeName: string;
  footnote: string;
}): EmailMessage {
  const { to, firstName, code, subject, codeName, footnote } = input;
  const greeting = firstName ? `Hello ${firstName},` : 'Hello,';
  const validity = `It is valid for ${CODE_TTL_MINUTES} minutes and can be used once.`;
  const text = [greeting, '', `Your ${codeName} is ${code}.`, validity, '', footnote].join('\n');
  const html = emailLayout(
    subject,
    `<p>${escapeHtml(greeting)}</p>
<p>Your ${codeName} is <strong style="font-size:22px;letter-spacing:4px">${escapeHtml(code)}</strong>.</p>
<p>${validity}</p>
<p>${escapeHtml(footnote)}</p>`,
  );
  return { to, subject, text, html };
}
