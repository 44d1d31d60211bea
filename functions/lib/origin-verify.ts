import { timingSafeEqual } from 'node:crypto';
import { ORIGIN_VERIFY_HEADER } from '../../shared/origin-verify';
import { config } from './config';
import { checkLocalCall } from './local-twin';
import { clearParameterCachesForTests, readSecret } from './parameters';

/**
 * The origin-verify check (docs/security.md#the-api-is-reachable-through-cloudfront-only). In the cloud against the Secrets Manager
 * secret; locally against ORIGIN_SECRET, which the local server's CloudFront stand-in sends, so
 * a request that bypasses it is refused there too (no local secret: nothing to check).
 *
 * The secret is read through Powertools Parameters (cached with maxAge). During a rotation
 * CloudFront may already send the new value to a warm function holding the old one: a mismatch
 * re-reads the secret, at most once a minute, before refusing. The previous value (`AWSPREVIOUS`) is accepted too, so a rotation
 * never refuses CloudFront's requests while its distribution update propagates.
 */
const REFRESH_AFTER_MS = 60_000;
let forcedAt = -Infinity;

async function secretValues(refresh = false): Promise<string[]> {
  const arn = config().originSecretArn;
  if (!arn) throw new Error('ORIGIN_SECRET_ARN is not set');
  const forceFetch = refresh && performance.now() - forcedAt >= REFRESH_AFTER_MS;
  if (forceFetch) forcedAt = performance.now();
  const read = await Promise.all([readSecret(arn, { forceFetch }), readSecret(arn, { previous: true, forceFetch })]);
  const found = read.filter((value): value is string => typeof value === 'string' && value.length >= 32);
  if (!found.length) throw new Error('origin-verify secret is empty or shorter than 32 characters');
  return found;
}

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** True when the request came through our CloudFront distribution (locally: the local server's stand-in). */
export async function fromOurCloudFront(headers: Record<string, string | undefined> | undefined): Promise<boolean> {
  const { stage, originSecret } = config();
  const sent = headers?.[ORIGIN_VERIFY_HEADER];
  if (stage !== 'cloud') {
    if (originSecret === undefined) return true;
    // the local secret comes from the environment; the local runtime still checks the role may read it
    await checkLocalCall('secretsmanager:GetSecretValue', { kind: 'secret', name: 'origin' });
    return sent !== undefined && sameText(originSecret, sent);
  }
  if (!sent) return false;
  if ((await secretValues()).some((value) => sameText(value, sent))) return true;
  return (await secretValues(true)).some((value) => sameText(value, sent));
}

/** Tests switch the secret. */
export function resetOriginSecretForTests(): void {
  forcedAt = -Infinity;
  clearParameterCachesForTests();
}
