import { describe, expect, it } from 'vitest';
import { readConfig } from './config';

const base = { SESSION_SECRET: 'x'.repeat(32) };

describe('ADMIN_PASSKEY_REQUIRED (docs/security.md#administrators-sign-in-with-a-passkey)', () => {
  it('is off unless set to true', () => {
    expect(readConfig(base).adminPasskeyRequired).toBe(false);
    expect(readConfig({ ...base, ADMIN_PASSKEY_REQUIRED: '' }).adminPasskeyRequired).toBe(false);
    expect(readConfig({ ...base, ADMIN_PASSKEY_REQUIRED: 'false' }).adminPasskeyRequired).toBe(false);
    expect(readConfig({ ...base, ADMIN_PASSKEY_REQUIRED: 'true' }).adminPasskeyRequired).toBe(true);
  });

  it('refuses any other value at start rather than guessing', () => {
    for (const value of ['yes', 'TRUE', '1', 'on'])
      expect(() => readConfig({ ...base, ADMIN_PASSKEY_REQUIRED: value }), value).toThrow(
        `ADMIN_PASSKEY_REQUIRED must be "true" or "false", got "${value}"`,
      );
  });
});
