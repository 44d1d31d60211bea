import { timingSafeEqual } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ORIGIN_VERIFY_HEADER } from '../../shared/origin-verify';
import { config } from './config';

/**
 * The origin-verify check of H1 (docs/security.md). Cloud only: locally the one local server
 * stands in for CloudFront and there is no header to check.
 *
 * The secret is read once per cold start. During a rotation CloudFront may already send the new
 * value to a warm function holding the old one: a mismatch re-reads the secret, at most once a
 * minute, before refusing. The previous value (`AWSPREVIOUS`) is accepted too, so a rotation
 * never refuses CloudFront's requests while its distribution update propagates.
 */
const REFRESH_AFTER_MS = 60_000;
const secretsManager = new SecretsManagerClient({});
let values: Promise<string[]> | undefined;
let loadedAt = 0;

async function load(arn: string): Promise<string[]> {
  const read = async (stage: string) => {
    try {
      const result = await secretsManager.send(new GetSecretValueCommand({ SecretId: arn, VersionStage: stage }));
      return result.SecretString ?? '';
    } catch (error) {
      if (stage === 'AWSPREVIOUS' && (error as Error).name === 'ResourceNotFoundException') return '';
      throw error;
    }
  };
  const found = (await Promise.all([read('AWSCURRENT'), read('AWSPREVIOUS')])).filter((value) => value.length >= 32);
  if (!found.length) throw new Error('origin-verify secret is empty or shorter than 32 characters');
  return found;
}

function secretValues(refresh = false): Promise<string[]> {
  const arn = config().originSecretArn;
  if (!arn) return Promise.reject(new Error('ORIGIN_SECRET_ARN is not set'));
  if (refresh && Date.now() - loadedAt >= REFRESH_AFTER_MS) values = undefined;
  if (!values) {
    loadedAt = Date.now();
    values = load(arn);
    values.catch(() => {
      values = undefined;
    });
  }
  return values;
}

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** True when the request came through our CloudFront distribution (always true locally). */
export async function fromOurCloudFront(headers: Record<string, string | undefined> | undefined): Promise<boolean> {
  if (config().stage !== 'cloud') return true;
  const sent = headers?.[ORIGIN_VERIFY_HEADER];
  if (!sent) return false;
  if ((await secretValues()).some((value) => sameText(value, sent))) return true;
  return (await secretValues(true)).some((value) => sameText(value, sent));
}

/** Tests switch the secret. */
export function resetOriginSecretForTests(): void {
  values = undefined;
  loadedAt = 0;
}
