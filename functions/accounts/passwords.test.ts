import { statSync } from 'node:fs';
import { dictionary } from '@zxcvbn-ts/language-common';
import { describe, expect, it } from 'vitest';
import { commonPasswordList } from '../../infra/ops/generate-common-passwords';
import { readConfig } from '../lib/config';
import {
  COMMON_PASSWORD_COUNT,
  assertStrongPassword,
  commonPasswords,
  hashPassword,
  isCommonPassword,
  SCRYPT_P,
  SCRYPT_R,
  verifyPassword,
} from './passwords';

describe('password hashing', () => {
  it('uses OWASP scrypt parameters in production: N = 2^17, r = 8, p = 1', async () => {
    // The production default (no PASSWORD_HASH_LOG2N): tests only lower it through the env.
    expect(readConfig({ STAGE: 'local', SESSION_SECRET: 'x'.repeat(32) }).passwordHashLog2N).toBe(17);
    expect(SCRYPT_R).toBe(8);
    expect(SCRYPT_P).toBe(1);
    // A real production-cost hash (128 MiB of memory): maxmem is raised enough for it.
    const hash = await hashPassword('production cost check', { log2N: 17, r: SCRYPT_R, p: SCRYPT_P });
    expect(hash).toMatch(/^scrypt\$17\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(await verifyPassword('production cost check', hash)).toBe(true);
  }, 20_000);

  it('salts every hash and verifies only the right password', async () => {
    const first = await hashPassword('same password here');
    const second = await hashPassword('same password here');
    expect(first).not.toBe(second);
    expect(first.startsWith('scrypt$10$8$1$')).toBe(true);
    expect(await verifyPassword('same password here', first)).toBe(true);
    expect(await verifyPassword('same password herE', first)).toBe(false);
  });

  it('refuses malformed or foreign hash strings without throwing', async () => {
    for (const stored of ['', 'not-a-hash', 'bcrypt$2b$10$abc', 'scrypt$99$8$1$AAAA$BBBB', 'scrypt$10$8$1$AAAA$BBBB']) {
      expect(await verifyPassword('anything at all', stored)).toBe(false);
    }
  });
});

describe('password policy', () => {
  it('accepts 8 to 128 characters of anything, with no composition rules', () => {
    expect(() => assertStrongPassword('zq8#vbn.', 'a@example.com')).not.toThrow();
    expect(() => assertStrongPassword('ünïcödé pässwörd', 'a@example.com')).not.toThrow();
    expect(() => assertStrongPassword('x'.repeat(127) + 'y', 'a@example.com')).not.toThrow();
    expect(() => assertStrongPassword('zq8#vbn', 'a@example.com')).toThrow('weak_password');
    expect(() => assertStrongPassword('x'.repeat(128) + 'y', 'a@example.com')).toThrow('weak_password');
  });

  it('refuses at least the 3,000 most common passwords, whatever their case', () => {
    expect(COMMON_PASSWORD_COUNT).toBeGreaterThanOrEqual(3000);
    expect(commonPasswords().size).toBeGreaterThanOrEqual(3000);
    for (const common of ['password', 'PASSWORD1', 'iloveyou', 'baseball', 'sunshine', 'trustno1', '12345678']) {
      expect(isCommonPassword(common), common).toBe(true);
    }
    // Its own code, so the form does not blame the length of a 9-character password.
    expect(() => assertStrongPassword('Password1', 'a@example.com')).toThrow('common_password');
    expect(() => assertStrongPassword('1234567', 'a@example.com')).toThrow('weak_password');
    expect(isCommonPassword('copper meadow violin')).toBe(false);
  });

  it('refuses every one of the 10,000 most common passwords of @zxcvbn-ts/language-common (compact generated list)', () => {
    const top = dictionary['passwords-common'].slice(0, 10_000);
    expect(top).toHaveLength(10_000);
    for (const common of top) expect(isCommonPassword(common), common).toBe(true);
    expect(isCommonPassword(dictionary['passwords-common'][20_000] + ' but longer')).toBe(false);
    expect(isCommonPassword('')).toBe(false);
  });

  it('ships the generated list up to date (npx tsx infra/ops/generate-common-passwords.ts)', () => {
    // Compared decoded: brotli's bytes may differ between zlib versions, the list must not.
    expect([...commonPasswords()].sort()).toEqual(commonPasswordList());
    expect(statSync(new URL('./common-passwords.br', import.meta.url)).size).toBeLessThan(30_000);
  });

  it('refuses the email itself', () => {
    expect(() => assertStrongPassword('Someone@Example.com', 'someone@example.com')).toThrow('weak_password');
    expect(() => assertStrongPassword('someone@example.com ', ' someone@example.com')).toThrow('weak_password');
  });
});
