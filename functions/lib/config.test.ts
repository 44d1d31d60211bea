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

describe('PREVIOUS_SITE_ORIGINS (docs/runbook.md#custom-domain)', () => {
  it('is empty unless set, and reads a comma-separated list of origins', () => {
    expect(readConfig(base).previousSiteOrigins).toEqual([]);
    expect(
      readConfig({ ...base, PREVIOUS_SITE_ORIGINS: 'https://d111111abcdef8.cloudfront.net, https://old.example.org' }).previousSiteOrigins,
    ).toEqual(['https://d111111abcdef8.cloudfront.net', 'https://old.example.org']);
  });

  it('refuses anything but a bare origin at start: a path, a trailing slash or no scheme would never match', () => {
    for (const value of [
      'https://d111111abcdef8.cloudfront.net/',
      'https://old.example.org/app',
      'd111111abcdef8.cloudfront.net',
      'ftp://x.org',
    ])
      expect(() => readConfig({ ...base, PREVIOUS_SITE_ORIGINS: value }), value).toThrow(/PREVIOUS_SITE_ORIGINS must list origins/);
  });
});
