import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readConfig, resetConfigForTests } from './config';
import { createDocumentClient } from './db';
import { resetSesClientForTests, ses } from './email';

/**
 * Operator scripts (infra/ops: make-admin, recounts, backfills) run this code with the
 * operator's AWS profile: they must act on the profile's region, as the AWS CLI would, and
 * never fall back to a region of their own.
 */
const awsDir = mkdtempSync(path.join(tmpdir(), 'aws-config-'));
const configFile = path.join(awsDir, 'config');
writeFileSync(configFile, '[default]\nregion = ap-south-1\n\n[profile operator]\nregion = eu-central-1\n');

const stubProfile = () => {
  vi.stubEnv('AWS_REGION', undefined);
  vi.stubEnv('AWS_DEFAULT_REGION', undefined);
  vi.stubEnv('DYNAMODB_ENDPOINT', undefined);
  vi.stubEnv('SES_ENDPOINT', undefined);
  vi.stubEnv('AWS_CONFIG_FILE', configFile);
  vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', path.join(awsDir, 'credentials'));
  vi.stubEnv('AWS_PROFILE', 'operator');
};

beforeEach(() => {
  resetConfigForTests();
  resetSesClientForTests();
});
afterEach(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
  resetSesClientForTests();
});
afterAll(() => rmSync(awsDir, { recursive: true, force: true }));

describe('the AWS region', () => {
  it('is left to the SDK when neither the environment nor a local endpoint names one', () => {
    expect(readConfig({ SESSION_SECRET: 'a'.repeat(32) }).region).toBeUndefined();
    expect(readConfig({ SESSION_SECRET: 'a'.repeat(32), AWS_REGION: 'eu-west-1' }).region).toBe('eu-west-1');
    expect(readConfig({ SESSION_SECRET: 'a'.repeat(32), AWS_DEFAULT_REGION: 'eu-north-1' }).region).toBe('eu-north-1');
  });

  it('is fixed for a local endpoint, which the SDK cannot sign for without one', () => {
    expect(readConfig({ SESSION_SECRET: 'a'.repeat(32), DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' }).region).toBe('us-east-1');
    expect(readConfig({ SESSION_SECRET: 'a'.repeat(32), SES_ENDPOINT: 'http://127.0.0.1:8005' }).region).toBe('us-east-1');
  });

  it("is the AWS profile's region for the DynamoDB and SES clients an operator script uses", async () => {
    stubProfile();
    await expect(createDocumentClient().config.region()).resolves.toBe('eu-central-1');
    await expect((await ses()).config.region()).resolves.toBe('eu-central-1');
  });

  it('follows AWS_REGION over the profile, as the AWS CLI does', async () => {
    stubProfile();
    vi.stubEnv('AWS_REGION', 'eu-west-3');
    await expect(createDocumentClient().config.region()).resolves.toBe('eu-west-3');
  });
});
