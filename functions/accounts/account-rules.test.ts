import { describe, expect, it } from 'vitest';
import { checkName, checkRegistration, isEmailShape, passwordLengthOk } from '../../shared/account-rules';

const valid = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  password: 'engine notes 1843',
  passwordConfirm: 'engine notes 1843',
};

describe('shared account rules', () => {
  it('names: 1-100 characters after trimming', () => {
    expect(checkName('  ')).toBe('required');
    expect(checkName(undefined)).toBe('required');
    expect(checkName(' A ')).toBeNull();
    expect(checkName(`  ${'a'.repeat(100)}  `)).toBeNull();
    expect(checkName('a'.repeat(101))).toBe('invalid');
    expect(checkName('bad\nname')).toBe('invalid');
  });

  it('email shape', () => {
    expect(isEmailShape(' ada@example.com ')).toBe(true);
    for (const bad of ['', 'ada', 'ada@', '@example.com', 'ada@example', 'a b@example.com', 'a@b@c.com', `${'a'.repeat(250)}@x.io`]) {
      expect(isEmailShape(bad), bad).toBe(false);
    }
  });

  it('emails and names hold no control character, line break or line separator (they become keys)', () => {
    for (const control of ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u009f', '\u2028', '\n']) {
      expect(isEmailShape(`ada${control}lace@example.com`), JSON.stringify(control)).toBe(false);
      expect(checkName(`Ada${control}Lovelace`), JSON.stringify(control)).toBe('invalid');
    }
    // a line break around the address is trimmed away, as it is before the address is stored
    expect(isEmailShape('ada@example.com\n')).toBe(true);
    expect(isEmailShape('zoë@exämple.com')).toBe(true);
  });

  it('password length 8..128', () => {
    expect(passwordLengthOk('1234567')).toBe(false);
    expect(passwordLengthOk('12345678')).toBe(true);
    expect(passwordLengthOk('x'.repeat(128))).toBe(true);
    expect(passwordLengthOk('x'.repeat(129))).toBe(false);
  });

  it('registration problems in order, with the missing fields listed', () => {
    expect(checkRegistration(valid)).toBeNull();
    expect(checkRegistration({})).toEqual({
      error: 'missing_fields',
      fields: ['first_name', 'last_name', 'email', 'password', 'passwordConfirm'],
    });
    expect(checkRegistration({ ...valid, first_name: ' ' })).toEqual({ error: 'first_name_required' });
    expect(checkRegistration({ ...valid, last_name: '' })).toEqual({ error: 'last_name_required' });
    expect(checkRegistration({ ...valid, email: '' })).toEqual({ error: 'missing_fields', fields: ['email'] });
    expect(checkRegistration({ ...valid, last_name: 'x'.repeat(101) })).toEqual({ error: 'last_name_invalid' });
    expect(checkRegistration({ ...valid, email: 'nope' })).toEqual({ error: 'invalid_email' });
    expect(checkRegistration({ ...valid, password: 'short', passwordConfirm: 'short' })).toEqual({ error: 'weak_password' });
    expect(checkRegistration({ ...valid, password: 'ADA@example.com', passwordConfirm: 'ADA@example.com' })).toEqual({
      error: 'weak_password',
    });
    expect(checkRegistration({ ...valid, passwordConfirm: 'engine notes 1844' })).toEqual({ error: 'password_mismatch' });
  });
});
