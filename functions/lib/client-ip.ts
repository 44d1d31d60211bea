import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key a per-IP rate limit counts under (docs/security.md#the-api-is-reachable-through-cloudfront-only). An IPv4 address is its own
 * key. An IPv6 address is keyed on its /64: one subscriber usually holds a whole /64 and can
 * pick a fresh address from it per request, so counting single addresses would not limit them.
 * The calls that send mail or check a password count by the /56 (`prefix` 56): many providers
 * hand one subscriber a /56 (256 /64s), which would otherwise multiply those limits by 256.
 */
export function ipRateKey(ip: string, prefix: 56 | 64 = 64): string {
  const address = ip
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(address) || !isIPv6(address)) return address.toLowerCase();
  const groups = expandIPv6(address).slice(0, 4);
  if (prefix !== 56) return `${groups.join(':')}::/64`;
  groups[3] = (parseInt(groups[3], 16) & 0xff00).toString(16);
  return `${groups.join(':')}::/56`;
}

/** The eight 16-bit groups of an IPv6 address, lower-case, without leading zeros. */
function expandIPv6(address: string): string[] {
  let text = address.toLowerCase();
  // An embedded IPv4 tail (::1.2.3.4) is two groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail !== undefined && tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...fill, ...tailGroups].map((group) => parseInt(group, 16).toString(16));
}
