import { describe, expect, it } from 'vitest';
import { formatTime, securityNoticeEmail } from './security-notice';

const base = {
  to: 'ada@example.com',
  firstName: 'Ada <3',
  at: new Date('2026-03-04T05:06:07Z'),
  device: 'Chrome on Windows',
  ip: '203.0.113.7',
  resetLink: 'https://app.example.com/forgot-password',
  settingsLink: 'https://app.example.com/settings',
};

describe('security notice emails', () => {
  it('give the time, device, IP and the "Wasn\'t you?" reset link in text and HTML', () => {
    const email = securityNoticeEmail({ ...base, event: 'password_changed' });
    expect(email.subject).toBe('Your password was changed');
    expect(email.text).toContain('Time: 2026-03-04 05:06 UTC');
    expect(email.text).toContain('Device: Chrome on Windows');
    expect(email.text).toContain('Location (IP address): 203.0.113.7');
    expect(email.text).toContain("Wasn't you? Reset your password:\nhttps://app.example.com/forgot-password");
    expect(email.html).toContain('<a href="https://app.example.com/forgot-password">Reset your password</a>');
    expect(email.html).toContain('Hello Ada &lt;3,');
    expect(email.text).not.toMatch(/unsubscribe/i);
  });

  it('a passkey_added notice also links to the removal of that passkey; other notices do not', () => {
    const link = 'https://app.example.com/passkey-removal?token=a.b&c';
    const email = securityNoticeEmail({ ...base, event: 'passkey_added', removalLink: link });
    expect(email.text).toContain(`Wasn't you? Remove this passkey and sign out everywhere:\n${link}\n\nWasn't you? Reset your password:`);
    expect(email.html).toContain(
      '<a href="https://app.example.com/passkey-removal?token=a.b&amp;c">Remove this passkey and sign out everywhere</a>',
    );
    expect(securityNoticeEmail({ ...base, event: 'password_changed' }).text).not.toContain('Remove this passkey');
  });

  it('names what happened for each event', () => {
    expect(securityNoticeEmail({ ...base, event: 'new_sign_in' }).text).toContain('from a browser it has not used before');
    expect(securityNoticeEmail({ ...base, event: 'password_reset' }).subject).toBe('Your password was reset');
    expect(securityNoticeEmail({ ...base, event: 'passkey_added', passkeyName: 'Laptop <key>' }).html).toContain(
      'named &quot;Laptop &lt;key&gt;&quot;',
    );
    expect(securityNoticeEmail({ ...base, event: 'passkey_removed', passkeyName: 'Phone' }).text).toContain(
      'The passkey named "Phone" was removed',
    );
    expect(securityNoticeEmail({ ...base, event: 'email_changed_old', otherEmail: 'new@example.com' }).text).toContain(
      'to new@example.com',
    );
    expect(securityNoticeEmail({ ...base, event: 'email_changed_new', otherEmail: 'old@example.com' }).text).toContain(
      'from old@example.com to this address',
    );
  });

  it('has one main action, "Review your security", linking to Settings; the other links stay plain', () => {
    for (const event of ['password_changed', 'new_sign_in', 'passkey_added'] as const) {
      const email = securityNoticeEmail({ ...base, event, removalLink: 'https://app.example.com/passkey-removal?token=t' });
      const buttons = email.html.match(/<a [^>]*style="display:inline-block[^>]*>[^<]*<\/a>/g);
      expect(buttons, event).toEqual([
        '<a href="https://app.example.com/settings" style="display:inline-block;background:#1d4ed8;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">Review your security</a>',
      ]);
      expect(email.text, event).toContain(
        'Review your security (where you are signed in, your passkeys):\nhttps://app.example.com/settings',
      );
    }
  });

  it("gives the time in the learner's time zone, named; UTC, labelled so, without one or for a zone Intl does not know", () => {
    const email = securityNoticeEmail({ ...base, event: 'new_sign_in', timeZone: 'Europe/Berlin' });
    expect(email.text).toContain('Time: 2026-03-04 06:06 (Europe/Berlin)');
    expect(email.html).toContain('<li>Time: 2026-03-04 06:06 (Europe/Berlin)</li>');
    expect(formatTime(base.at, 'Asia/Kolkata')).toBe('2026-03-04 10:36 (Asia/Kolkata)');
    expect(formatTime(new Date('2026-03-04T23:30:00Z'), 'America/New_York')).toBe('2026-03-04 18:30 (America/New_York)');
    expect(formatTime(base.at, undefined)).toBe('2026-03-04 05:06 UTC');
    expect(formatTime(base.at, 'UTC')).toBe('2026-03-04 05:06 UTC');
    expect(formatTime(base.at, 'Mars/Olympus')).toBe('2026-03-04 05:06 UTC');
  });
});
