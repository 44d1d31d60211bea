import { describe, expect, it } from 'vitest';
import { backoffSeconds, configureRateLimits, rateLimits } from './rate-limit';

describe('login backoff', () => {
  it('lets the first four failures through, then waits 1 s, 2 s, 4 s … doubling', () => {
    expect([0, 1, 2, 3, 4].map(backoffSeconds)).toEqual([0, 0, 0, 0, 0]);
    expect([5, 6, 7, 8, 9].map(backoffSeconds)).toEqual([1, 2, 4, 8, 16]);
    for (let failures = 6; failures < 15; failures++) expect(backoffSeconds(failures)).toBe(2 * backoffSeconds(failures - 1));
  });

  it('caps the wait at 15 minutes', () => {
    expect(backoffSeconds(14)).toBe(512);
    expect(backoffSeconds(15)).toBe(900);
    expect(backoffSeconds(60)).toBe(900);
    expect(backoffSeconds(10_000)).toBe(900);
  });
});

describe('limits', () => {
  it('default to the security baseline', () => {
    // docs/security.md#sign-in-a-stranger-cannot-lock-the-owner-out-guessing-stays-bounded: 90 for unknown browsers + 10 for the account's trusted devices = 100 an hour
    expect(rateLimits.loginFailuresPerAccount).toEqual({ limit: 90, windowSeconds: 3600 });
    expect(rateLimits.loginFailuresPerAccountTrusted).toEqual({ limit: 10, windowSeconds: 3600 });
    expect(rateLimits.loginFailuresPerIp).toEqual({ limit: 100, windowSeconds: 3600 });
    expect(rateLimits.registerPerIp).toEqual({ limit: 50, windowSeconds: 3600 });
    expect(rateLimits.codeResendPerMinute).toEqual({ limit: 1, windowSeconds: 60 });
    expect(rateLimits.codeResendPerHour).toEqual({ limit: 5, windowSeconds: 3600 });
  });

  it('can be lowered for tests and restored', () => {
    configureRateLimits({ registerPerIp: { limit: 2, windowSeconds: 60 } });
    expect(rateLimits.registerPerIp.limit).toBe(2);
    configureRateLimits();
    expect(rateLimits.registerPerIp.limit).toBe(50);
  });
});
