import { emailLayout, escapeHtml, type EmailMessage } from '../../lib/email';

/**
 * Confirms a learner's own "Delete my account": when the data will be erased (the retention
 * period) and how to change one's mind (sign in again, or write to the support address, which
 * is also the Reply-To: the sender is a no-reply address). No free text the learner typed is
 * repeated: only dates.
 */
export function accountDeletionEmail(to: string, eraseOn: string, retentionDays: number, supportEmail: string): EmailMessage {
  const subject = 'Your account has been deleted';
  const text = [
    'Hello,',
    '',
    'As you asked, your Career Program account has been deleted. You have been signed out everywhere and can no longer sign in.',
    '',
    `Your data will be erased for good on ${eraseOn} (${retentionDays} days from today).`,
    '',
    `Changed your mind? Reply to this email or contact the administrator before ${eraseOn}: they can restore your account, with your progress, until then.`,
    `You can also restore it yourself until then: log in with your email and password and confirm with the code we email you.`,
    '',
    `If you did not delete your account yourself, contact the administrator at once: ${supportEmail}.`,
  ].join('\n');
  const html = emailLayout(
    subject,
    `<p>Hello,</p>
<p>As you asked, your Career Program account has been deleted. You have been signed out everywhere and can no longer sign in.</p>
<p>Your data will be erased for good on <strong>${escapeHtml(eraseOn)}</strong> (${retentionDays} days from today).</p>
<p>Changed your mind? Reply to this email or contact the administrator before ${escapeHtml(eraseOn)}: they can restore your account, with your progress, until then.
You can also restore it yourself until then: log in with your email and password and confirm with the code we email you.</p>
<p>If you did not delete your account yourself, contact the administrator at once: <a href="mailto:${escapeHtml(supportEmail)}">${escapeHtml(supportEmail)}</a>.</p>`,
  );
  return { to, subject, text, html, replyTo: supportEmail };
}
