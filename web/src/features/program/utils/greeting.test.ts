import { describe, expect, it } from 'vitest';
import { displayName, greetingName } from './greeting';

describe('greetingName', () => {
  it('uses the first name', () => {
    expect(greetingName({ first_name: ' Ada ', name: 'Augusta King', email: 'x@y.z' })).toBe('Ada');
  });
  it('falls back to the first word of the name', () => {
    expect(greetingName({ first_name: '  ', name: '  Grace  Hopper', email: 'g@y.z' })).toBe('Grace');
  });
  it('then to the email local part', () => {
    expect(greetingName({ first_name: '', name: '', email: 'linus.t@example.com' })).toBe('linus.t');
  });
  it("then to 'there'", () => {
    expect(greetingName({ email: '@example.com' })).toBe('there');
    expect(greetingName(null)).toBe('there');
    expect(greetingName(undefined)).toBe('there');
  });
});

describe('displayName', () => {
  it('prefers the full name, then first + last, else Not provided', () => {
    expect(displayName({ name: 'Ada Lovelace' })).toBe('Ada Lovelace');
    expect(displayName({ name: '', first_name: 'Ada', last_name: 'L' })).toBe('Ada L');
    expect(displayName({ name: ' ', first_name: '', last_name: '' })).toBe('Not provided');
    expect(displayName(undefined)).toBe('Not provided');
  });
});
