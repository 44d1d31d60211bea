import { describe, expect, it } from 'vitest';
import { CHANGE_PASSWORD_MESSAGES, changePasswordSchema, FORGOT_PASSWORD_MESSAGES, forgotPasswordSchema, RESET_PASSWORD_MESSAGES, resetPasswordSchema } from './account-forms';

const issues = (value: unknown) => {
  const result = changePasswordSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
};

describe('changePasswordSchema', () => {
  it('accepts a filled form whose new password has 8 to 128 characters and is confirmed', () => {
    expect(issues({ current_password: 'old', new_password: 'new password', confirm_new_password: 'new password' })).toEqual([]);
  });

  it('names the field and the message of each problem', () => {
    expect(issues({ current_password: '', new_password: 'seven77', confirm_new_password: 'seven7' })).toEqual([
      ['current_password', CHANGE_PASSWORD_MESSAGES.currentRequired],
      ['new_password', CHANGE_PASSWORD_MESSAGES.tooShort],
      ['confirm_new_password', CHANGE_PASSWORD_MESSAGES.mismatch],
    ]);
    expect(issues({ current_password: 'old', new_password: 'new password', confirm_new_password: 'new passwore' })).toEqual([
      ['confirm_new_password', CHANGE_PASSWORD_MESSAGES.mismatch],
    ]);
    expect(issues({ current_password: 'old', new_password: 'x'.repeat(129), confirm_new_password: 'x'.repeat(129) })).toEqual([
      ['new_password', CHANGE_PASSWORD_MESSAGES.tooShort],
    ]);
  });
});

describe('resetPasswordSchema', () => {
  const problems = (value: unknown) => {
    const result = resetPasswordSchema.safeParse(value);
    return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
  };

  it('accepts a confirmed password of 8+ characters', () => {
    expect(problems({ password: 'a much better one', password2: 'a much better one' })).toEqual([]);
  });

  it('reports a short password and a differing confirmation on their fields', () => {
    expect(problems({ password: 'short', password2: 'shorter' })).toEqual([
      ['password', RESET_PASSWORD_MESSAGES.tooShort],
      ['password2', RESET_PASSWORD_MESSAGES.mismatch],
    ]);
  });
});

describe('forgotPasswordSchema', () => {
  it('requires an email and trims it', () => {
    expect(forgotPasswordSchema.safeParse({ email: '  ada@example.com ' }).data).toEqual({ email: 'ada@example.com' });
    expect(forgotPasswordSchema.safeParse({ email: '   ' }).error?.issues.map((issue) => issue.message)).toEqual([FORGOT_PASSWORD_MESSAGES.emailRequired]);
  });
});
