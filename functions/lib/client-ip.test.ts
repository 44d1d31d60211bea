import { describe, expect, it } from 'vitest';
import { ipRateKey } from './client-ip';

describe('ipRateKey', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(ipRateKey('203.0.113.7')).toBe('203.0.113.7');
    expect(ipRateKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('keys every address of one IPv6 /64 alike, whatever its notation', () => {
    const keysOf = ['2001:db8:1:2::1', '2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:DB8:1:2:a:b:c:d', '2001:db8:1:2::5.6.7.8'].map(
      (ip) => ipRateKey(ip),
    );
    expect(new Set(keysOf)).toEqual(new Set(['2001:db8:1:2::/64']));
  });

  it('keeps neighbouring /64s apart', () => {
    expect(ipRateKey('2001:db8:1:3::1')).not.toBe(ipRateKey('2001:db8:1:2::1'));
    expect(ipRateKey('::1')).toBe('0:0:0:0::/64');
    expect(ipRateKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('keys every /64 of one IPv6 /56 alike when asked for the /56; IPv4 unchanged', () => {
    const keysOf = ['2001:db8:1:200::1', '2001:db8:1:2ff:ffff::9', '2001:db8:1:0280::5'].map((ip) => ipRateKey(ip, 56));
    expect(new Set(keysOf)).toEqual(new Set(['2001:db8:1:200::/56']));
    expect(ipRateKey('2001:db8:1:300::1', 56)).toBe('2001:db8:1:300::/56');
    expect(ipRateKey('2001:db8:1:ff::1', 56)).toBe('2001:db8:1:0::/56');
    expect(ipRateKey('203.0.113.7', 56)).toBe('203.0.113.7');
  });
});
