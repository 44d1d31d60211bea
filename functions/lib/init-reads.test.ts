import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** docs/lean-builds.md: secrets and parameters are read while the Lambda initialises. */
const secrets = mockClient(SecretsManagerClient);
const ssm = mockClient(SSMClient);
afterAll(() => {
  secrets.restore();
  ssm.restore();
});

beforeEach(() => {
  secrets.reset();
  ssm.reset();
  secrets.on(GetSecretValueCommand).resolves({ SecretString: 'cloud-secret-cloud-secret-cloud-secret' });
  ssm.on(GetParameterCommand).resolves({ Parameter: { Value: 'https://d111.cloudfront.net/' } });
  vi.resetModules();
  vi.stubEnv('STAGE', 'cloud');
  vi.stubEnv('SESSION_SECRET', '');
  vi.stubEnv('SESSION_SECRET_ARN', 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:session');
  vi.stubEnv('APP_URL', '');
  vi.stubEnv('APP_URL_PARAMETER', '/stack/app-url');
  vi.stubEnv('ORIGIN_SECRET_ARN', 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:origin');
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('reads during init', () => {
  it('in Lambda, loading a group handler starts reading the session secret, once; the site URL waits for its first use', async () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'career-program-learner');
    await import('../groups/learner');
    await vi.waitFor(() => expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1));
    expect(secrets.commandCalls(GetSecretValueCommand)[0].args[0].input).toEqual({
      SecretId: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:session',
      VersionStage: 'AWSCURRENT',
    });
    expect(ssm.calls()).toHaveLength(0);
    // the first requests reuse what init read
    const { keyRing } = await import('./session-keys');
    await keyRing();
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    const { appUrl } = await import('./app-url');
    expect(await appUrl()).toBe('https://d111.cloudfront.net');
    expect(await appUrl()).toBe('https://d111.cloudfront.net');
    expect(ssm.commandCalls(GetParameterCommand)).toHaveLength(1);
    expect(ssm.commandCalls(GetParameterCommand)[0].args[0].input).toMatchObject({ Name: '/stack/app-url' });
  }, 60_000);

  it('a failed read during init is retried by the first request instead of being cached', async () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'career-program-auth');
    secrets
      .on(GetSecretValueCommand)
      .rejectsOnce(new Error('throttled'))
      .resolves({ SecretString: 'cloud-secret-cloud-secret-cloud-secret' });
    const { readSecretsDuringInit } = await import('./init-reads');
    await readSecretsDuringInit();
    const { keyRing } = await import('./session-keys');
    expect((await keyRing()).current.key).toEqual(new TextEncoder().encode('cloud-secret-cloud-secret-cloud-secret'));
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('outside Lambda (local runtime, tests) it reads nothing at import', async () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', '');
    await import('../groups/admin');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(secrets.calls()).toHaveLength(0);
    expect(ssm.calls()).toHaveLength(0);
  });
});
