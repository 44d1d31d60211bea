import { describe, expect, it } from 'vitest';
import { checkName, isEmailShape } from './account-rules';
import {
  adminProfileSchema,
  CHANGE_PASSWORD_MESSAGES,
  changePasswordSchema,
  FORGOT_PASSWORD_MESSAGES,
  forgotPasswordSchema,
  loginSchema,
  REGISTER_MESSAGES,
  registerSchema,
  RESET_PASSWORD_MESSAGES,
  resetPasswordSchema,
} from './account-forms';

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
    expect(forgotPasswordSchema.safeParse({ email: '   ' }).error?.issues.map((issue) => issue.message)).toEqual([
      FORGOT_PASSWORD_MESSAGES.emailRequired,
    ]);
  });
});

describe('registerSchema', () => {
  const problems = (value: unknown) => {
    const result = registerSchema.safeParse(value);
    return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
  };

  it('accepts a complete registration', () => {
    expect(
      problems({
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        password: 'correct horse',
        passwordConfirm: 'correct horse',
      }),
    ).toEqual([]);
  });

  it('names each field with its message', () => {
    expect(problems({ first_name: ' ', last_name: 'x'.repeat(101), email: ' ', password: 'short', passwordConfirm: 'other' })).toEqual([
      ['first_name', REGISTER_MESSAGES.firstNameRequired],
      ['last_name', REGISTER_MESSAGES.lastNameInvalid],
      ['email', REGISTER_MESSAGES.emailRequired],
      ['password', REGISTER_MESSAGES.weakPassword],
      ['passwordConfirm', REGISTER_MESSAGES.passwordMismatch],
    ]);
  });
});

describe('loginSchema', () => {
  it('needs both fields and trims the email, never the password', () => {
    expect(loginSchema.safeParse({ email: ' ada@example.com ', password: ' pw ' }).data).toEqual({
      email: 'ada@example.com',
      password: ' pw ',
    });
    expect(loginSchema.safeParse({ email: '  ', password: 'pw' }).success).toBe(false);
    expect(loginSchema.safeParse({ email: 'ada@example.com', password: '' }).success).toBe(false);
  });
});

describe('adminProfileSchema', () => {
  const codes = (value: unknown) => {
    const result = adminProfileSchema.safeParse(value);
    return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
  };
  const valid = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

  it('trims a valid profile', () => {
    expect(adminProfileSchema.safeParse({ first_name: ' Ada ', last_name: 'Lovelace ', email: ' ada@example.com' }).data).toEqual(valid);
  });

  it("answers the API's error codes, from the same rules", () => {
    expect(codes({ ...valid, first_name: '  ' })).toEqual([['first_name', 'first_name_required']]);
    expect(codes({ ...valid, last_name: 'x'.repeat(101) })).toEqual([['last_name', 'last_name_invalid']]);
    expect(codes({ ...valid, email: ' ' })).toEqual([
      ['email', 'email_required'],
      ['email', 'invalid_email'],
    ]);
    expect(codes({ ...valid, email: 'ada@example' })).toEqual([['email', 'invalid_email']]);
    // The same verdicts as the rules the API applies.
    expect(checkName('x'.repeat(101))).toBe('invalid');
    expect(isEmailShape('ada@example')).toBe(false);
  });
});
