import { emailLayout, escapeHtml, type EmailMessage } from '../../lib/email';

/**
 * Security notices (docs/security.md#account-security-center): something changed on the account. Not reminders:
 * no unsubscribe, always sent. One main action, "Review your security" (Settings, where sessions
 * and passkeys are); each says when (in the learner's time zone), from which device and address,
 * and links to the password reset for the case it was not the owner; `passkey_added` also links
 * to the removal of that passkey (../passkey-removal-link.ts).
 */
export type SecurityEvent =
  'password_changed' | 'password_reset' | 'email_changed_old' | 'email_changed_new' | 'new_sign_in' | 'passkey_added' | 'passkey_removed';

const SUBJECTS: Record<SecurityEvent, string> = {
  password_changed: 'Your password was changed',
  password_reset: 'Your password was reset',
  email_changed_old: 'Your account email address was changed',
  email_changed_new: 'Your account email address was changed',
  new_sign_in: 'New sign-in to your account',
  passkey_added: 'A passkey was added to your account',
  passkey_removed: 'A passkey was removed from your account',
};

function whatHappened(event: SecurityEvent, detail: { passkeyName?: string; otherEmail?: string }): string {
  switch (event) {
    case 'password_changed':
      return 'The password of your account was changed. Your other sessions were signed out.';
    case 'password_reset':
      return 'The password of your account was reset with an emailed link. Every session was signed out.';
    case 'email_changed_old':
      return `An administrator changed the email address of your account to ${detail.otherEmail ?? 'a new address'}. This address no longer signs in.`;
    case 'email_changed_new':
      return `An administrator changed the email address of your account from ${detail.otherEmail ?? 'your previous address'} to this address.`;
    case 'new_sign_in':
      return 'Your account was signed in to from a browser it has not used before.';
    case 'passkey_added':
      return `A passkey${detail.passkeyName ? ` named "${detail.passkeyName}"` : ''} was added to your account. It can now sign in without your password.`;
    case 'passkey_removed':
      return `The passkey${detail.passkeyName ? ` named "${detail.passkeyName}"` : ''} was removed from your account.`;
  }
}

export interface SecurityNoticeInput {
  to: string;
  firstName: string;
  event: SecurityEvent;
  /** When it happened. */
  at: Date;
  /** The learner's IANA time zone for `at`; absent or unknown: UTC. */
  timeZone?: string;
  /** Settings, where the learner reviews sessions and passkeys: the notice's main action. */
  settingsLink: string;
  /** A readable device label such as "Chrome on Windows". */
  device: string;
  ip: string;
  resetLink: string;
  /** `passkey_added`: the signed link that removes that passkey and signs out everywhere. */
  removalLink?: string;
  passkeyName?: string;
  otherEmail?: string;
}

const removalParagraph = (link: string) =>
  `<p><strong>Wasn't you?</strong> <a href="${escapeHtml(link)}">Remove this passkey and sign out everywhere</a></p>\n`;

const utcTime = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** "2026-03-04 06:06 (Europe/Berlin)"; UTC, labelled so, when there is no zone or Intl does not know it. */
export function formatTime(at: Date, timeZone: string | undefined): string {
  if (!timeZone || timeZone === 'UTC') return utcTime(at);
  try {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-CA', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(at)
        .map((part) => [part.type, part.value]),
    );
    return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} (${timeZone})`;
  } catch {
    return utcTime(at); // a zone Intl does not know (RangeError)
  }
}

const mainAction = (link: string) =>
  `<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">Review your security</a></p>\n`;

export function securityNoticeEmail(input: SecurityNoticeInput): EmailMessage {
  const subject = SUBJECTS[input.event];
  const what = whatHappened(input.event, input);
  const facts: Array<[string, string]> = [
    ['Time', formatTime(input.at, input.timeZone)],
    ['Device', input.device],
    ['Location (IP address)', input.ip || 'unknown'],
  ];
  const text = [
    `Hello ${input.firstName},`,
    '',
    what,
    '',
    ...facts.map(([label, value]) => `${label}: ${value}`),
    '',
    'Review your security (where you are signed in, your passkeys):',
    input.settingsLink,
    '',
    ...(input.removalLink ? ["Wasn't you? Remove this passkey and sign out everywhere:", input.removalLink, ''] : []),
    "Wasn't you? Reset your password:",
    input.resetLink,
    '',
    'This is a security notice about your account. It is always sent and cannot be turned off.',
  ].join('\n');
  const html = emailLayout(
    subject,
    `<p>Hello ${escapeHtml(input.firstName)},</p>
<p>${escapeHtml(what)}</p>
<ul>${facts.map(([label, value]) => `<li>${escapeHtml(label)}: ${escapeHtml(value)}</li>`).join('')}</ul>
${mainAction(input.settingsLink)}${input.removalLink ? removalParagraph(input.removalLink) : ''}<p><strong>Wasn't you?</strong> <a href="${escapeHtml(input.resetLink)}">Reset your password</a></p>
<p>Or paste this address into your browser: ${escapeHtml(input.resetLink)}</p>
<p style="font-size:12px;color:#6b7280">This is a security notice about your account. It is always sent and cannot be turned off.</p>`,
  );
  return { to: input.to, subject, text, html };
}
