import { describe, expect, it } from 'vitest';
import { loginCodeEmail } from './login-code';
import { verificationCodeEmail } from './verification-code';

describe('code emails', () => {
  it('give the code, its 10-minute validity and a safety note, in text and HTML', () => {
    const login = loginCodeEmail('ada@example.com', 'Ada <3', '123456');
    expect(login).toMatchObject({ to: 'ada@example.com', subject: 'Your login code' });
    expect(login.text).toContain('Your login code is 123456.\nIt is valid for 10 minutes and can be used once.');
    expect(login.text).toContain('someone may know your password');
    expect(login.html).toContain('Hello Ada &lt;3,');
    expect(login.html).toContain('>123456</strong>');

    const verify = verificationCodeEmail('ada@example.com', '654321');
    expect(verify.subject).toBe('Verify your email');
    expect(verify.text).toContain('Your verification code is 654321.');
    expect(verify.html).toContain('It is valid for 10 minutes and can be used once.');
    expect(verify.html).toContain('you can ignore this email');
  });

  it('carry no name to an address that is not confirmed yet (verification), in text or HTML', () => {
    const verify = verificationCodeEmail('victim@example.com', '654321');
    expect(verify.text.startsWith('Hello,\n')).toBe(true);
    expect(verify.html).toContain('<p>Hello,</p>');
  });
});
