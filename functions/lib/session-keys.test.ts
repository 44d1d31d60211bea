import { describe, expect, it } from 'vitest';
import { readConfig } from './config';
import { MIN_KEY_BYTES, parseKeyRing } from './session-keys';

const key = (c: string) => c.repeat(MIN_KEY_BYTES);

describe('session key ring', () => {
  it('signs with the first key, verifies with every key, each by its kid', () => {
    const ring = parseKeyRing(
      JSON.stringify({
        keys: [
          { kid: 'new', secret: key('n') },
          { kid: 'old', secret: key('o') },
        ],
      }),
    );
    expect(ring.current.kid).toBe('new');
    expect([...ring.byKid.keys()]).toEqual(['new', 'old']);
  });

  it('names a plain key by its hash, so the kid is stable and reveals nothing', () => {
    const one = parseKeyRing(key('a'));
    expect(one.current.kid).toBe(parseKeyRing(key('a')).current.kid);
    expect(one.current.kid).not.toContain('a'.repeat(4));
    expect(parseKeyRing(key('a'), [key('b')]).byKid.size).toBe(2);
  });

  it('refuses a key shorter than 32 bytes', () => {
    expect(() => parseKeyRing('x'.repeat(31))).toThrow(/at least 32/);
    expect(() => parseKeyRing(JSON.stringify({ keys: [{ kid: 'k', secret: 'short' }] }))).toThrow(/at least 32/);
    expect(() => readConfig({ STAGE: 'local', SESSION_SECRET: 'x'.repeat(31) })).toThrow(/at least 32 bytes/);
  });

  it('in the cloud takes the key from Secrets Manager only, never from a variable', () => {
    expect(() => readConfig({ STAGE: 'cloud', SESSION_SECRET_ARN: 'arn:secret', SESSION_SECRET: key('x') })).toThrow(
      /must not be set in the cloud/,
    );
    expect(readConfig({ STAGE: 'cloud', SESSION_SECRET_ARN: 'arn:secret' }).sessionSecretArn).toBe('arn:secret');
  });
});
