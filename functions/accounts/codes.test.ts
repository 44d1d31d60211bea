import { describe, expect, it } from 'vitest';
import { CODE_TTL_SECONDS, checkCode, generateCode, hashCode, newCode } from './codes';

describe('one-time codes', () => {
  it('are 6 random digits', () => {
    const codes = Array.from({ length: 200 }, generateCode);
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(190);
  });

  it('are stored only as a salted HMAC', () => {
    const { code, stored } = newCode();
    expect(JSON.stringify(stored)).not.toContain(code);
    expect(stored.code_hash).toBe(hashCode(code, stored.code_salt));
    const other = newCode();
    expect(hashCode(code, other.stored.code_salt)).not.toBe(stored.code_hash);
  });

  it('accept the right code and refuse a wrong or malformed one', () => {
    const now = Date.now();
    const { code, stored } = newCode(now);
    expect(checkCode(stored, code, now)).toBe('ok');
    expect(checkCode(stored, code === '123456' ? '654321' : '123456', now)).toBe('wrong');
    expect(checkCode(stored, `${code}0`, now)).toBe('wrong');
    expect(checkCode(stored, '', now)).toBe('wrong');
  });

  it('live 10 minutes', () => {
    const now = Date.now();
    const { code, stored } = newCode(now);
    expect(CODE_TTL_SECONDS).toBe(600);
    expect(stored.expires_at).toBe(Math.floor(now / 1000) + 600);
    expect(checkCode(stored, code, now + 599_000)).toBe('ok');
    expect(checkCode(stored, code, now + 600_000)).toBe('expired');
  });

  it('die after 5 wrong tries, even for the right code', () => {
    const now = Date.now();
    const { code, stored } = newCode(now);
    expect(checkCode({ ...stored, attempts: 4 }, code, now)).toBe('ok');
    expect(checkCode({ ...stored, attempts: 5 }, code, now)).toBe('dead');
  });
});
