import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearParameterCachesForTests, readParameter, readSecret, SECRET_MAX_AGE_SECONDS } from './parameters';

/** Secrets and parameters through Powertools Parameters: cached for maxAge, failures not cached. */
const secrets = mockClient(SecretsManagerClient);
const ssm = mockClient(SSMClient);
afterAll(() => {
  secrets.restore();
  ssm.restore();
  vi.useRealTimers();
});
beforeEach(() => {
  secrets.reset();
  ssm.reset();
  clearParameterCachesForTests();
  vi.useRealTimers();
});

const ARN = 'arn:aws:secretsmanager:eu-west-1:1:secret:s';

describe('readSecret', () => {
  it('reads AWSCURRENT once, then serves it from the cache until maxAge has passed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    secrets.on(GetSecretValueCommand).resolvesOnce({ SecretString: 'one' }).resolves({ SecretString: 'two' });
    expect(await readSecret(ARN)).toBe('one');
    expect(await readSecret(ARN)).toBe('one');
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    expect(secrets.commandCalls(GetSecretValueCommand)[0].args[0].input).toEqual({ SecretId: ARN, VersionStage: 'AWSCURRENT' });
    vi.setSystemTime(Date.now() + (SECRET_MAX_AGE_SECONDS + 1) * 1000);
    expect(await readSecret(ARN)).toBe('two');
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('re-reads at once when forced (a rotation met early)', async () => {
    secrets.on(GetSecretValueCommand).resolvesOnce({ SecretString: 'old' }).resolves({ SecretString: 'new' });
    expect(await readSecret(ARN)).toBe('old');
    expect(await readSecret(ARN, { forceFetch: true })).toBe('new');
    expect(await readSecret(ARN)).toBe('new');
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('shares one call among concurrent first reads', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: 'one' });
    expect(await Promise.all([readSecret(ARN), readSecret(ARN), readSecret(ARN)])).toEqual(['one', 'one', 'one']);
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it('caches the previous version apart from the current one, and answers undefined when there is none', async () => {
    secrets.on(GetSecretValueCommand, { VersionStage: 'AWSCURRENT' }).resolves({ SecretString: 'current' });
    secrets.on(GetSecretValueCommand, { VersionStage: 'AWSPREVIOUS' }).resolvesOnce({ SecretString: 'previous' });
    expect(await readSecret(ARN)).toBe('current');
    expect(await readSecret(ARN, { previous: true })).toBe('previous');
    clearParameterCachesForTests();
    secrets
      .on(GetSecretValueCommand, { VersionStage: 'AWSPREVIOUS' })
      .rejects(Object.assign(new Error('no such version'), { name: 'ResourceNotFoundException' }));
    expect(await readSecret(ARN, { previous: true })).toBeUndefined();
  });

  it('does not cache a failure: the next read tries again', async () => {
    secrets
      .on(GetSecretValueCommand)
      .rejectsOnce(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }))
      .resolves({ SecretString: 'ok' });
    await expect(readSecret(ARN)).rejects.toThrow(/Rate exceeded/);
    expect(await readSecret(ARN)).toBe('ok');
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });
});

describe('readParameter', () => {
  it('reads an SSM parameter once and caches it', async () => {
    ssm.on(GetParameterCommand).resolves({ Parameter: { Value: 'https://d111.cloudfront.net' } });
    expect(await readParameter('/stack/app-url')).toBe('https://d111.cloudfront.net');
    expect(await readParameter('/stack/app-url')).toBe('https://d111.cloudfront.net');
    expect(ssm.commandCalls(GetParameterCommand)).toHaveLength(1);
    expect(ssm.commandCalls(GetParameterCommand)[0].args[0].input).toMatchObject({ Name: '/stack/app-url' });
  });

  it('does not cache a failure', async () => {
    ssm
      .on(GetParameterCommand)
      .rejectsOnce(new Error('throttled'))
      .resolves({ Parameter: { Value: 'https://site.example' } });
    await expect(readParameter('/p')).rejects.toThrow(/throttled/);
    expect(await readParameter('/p')).toBe('https://site.example');
  });
});
