import { describe, expect, it } from 'vitest';
import { backoffSeconds, configureRateLimits, rateLimits, scopeKey } from './rate-limit';

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
    // docs/security.md#registration-tells-whether-an-address-is-registered
    expect(rateLimits.registeredAnswersPerIp).toEqual({ limit: 20, windowSeconds: 3600 });
    expect(rateLimits.codeResendPerMinute).toEqual({ limit: 1, windowSeconds: 60 });
    expect(rateLimits.codeResendPerHour).toEqual({ limit: 5, windowSeconds: 3600 });
    // the daily allowances of the reserved mail share (docs/security.md#outbound-mail-budget)
    expect(rateLimits.reservedSignInCodesPerAccount).toEqual({ limit: 6, windowSeconds: 86_400 });
    expect(rateLimits.reservedResetLinksPerAccount).toEqual({ limit: 3, windowSeconds: 86_400 });
    expect(rateLimits.reservedNoticesPerAccount).toEqual({ limit: 5, windowSeconds: 86_400 });
    expect(rateLimits.reservedMailsPerIp).toEqual({ limit: 200, windowSeconds: 86_400 });
    expect(rateLimits.verificationCodesPerDay).toEqual({ limit: 10, windowSeconds: 86_400 });
  });

  it('can be lowered for tests and restored', () => {
    configureRateLimits({ registerPerIp: { limit: 2, windowSeconds: 60 } });
    expect(rateLimits.registerPerIp.limit).toBe(2);
    configureRateLimits();
    expect(rateLimits.registerPerIp.limit).toBe(50);
  });
});

describe('address blocks', () => {
  const sameSlash56 = ['2001:db8:1:200::1', '2001:db8:1:2ff::9'];
  it('count register (and its answers about registered addresses), resend, sign-in and reset requests and the reserved mails by the IPv6 /56', () => {
    for (const name of [
      'registerPerIp',
      'registeredAnswersPerIp',
      'codeResendPerIp',
      'loginFailuresPerIp',
      'resetRequestsPerIp',
      'reservedMailsPerIp',
    ] as const) {
      expect(new Set(sameSlash56.map((ip) => scopeKey(name, ip))), name).toEqual(new Set(['2001:db8:1:200::/56']));
      expect(scopeKey(name, '203.0.113.7')).toBe('203.0.113.7');
    }
  });

  it('count the other per-IP limits by the /64', () => {
    expect(new Set(sameSlash56.map((ip) => scopeKey('codeChecksPerIp', ip)))).toEqual(
      new Set(['2001:db8:1:200::/64', '2001:db8:1:2ff::/64']),
    );
    expect(scopeKey('resetTokenChecksPerIp', '2001:db8:1:2ff::9')).toBe('2001:db8:1:2ff::/64');
  });
});
