import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { SignJWT } from 'jose';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from './config';
import { resetUnsubscribeKeyForTests, signUnsubscribeToken, verifyUnsubscribeToken } from './unsubscribe-token';

const env = { ...process.env };
const secrets = mockClient(SecretsManagerClient);
const useEnv = (values: Record<string, string | undefined>) => {
  process.env = { ...env, ...values };
  resetConfigForTests();
  resetUnsubscribeKeyForTests();
};
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: { statusCode?: number; code?: string }) => `${error.statusCode} ${error.code}`,
  );

beforeEach(() =>
  useEnv({ STAGE: 'local', SESSION_SECRET: 's'.repeat(40), UNSUBSCRIBE_SECRET: undefined, UNSUBSCRIBE_SECRET_ARN: undefined }),
);
afterEach(() => secrets.reset());
afterAll(() => {
  secrets.restore();
  useEnv({});
});

describe('unsubscribe token', () => {
  it('names the account and verifies without expiry', async () => {
    const token = await signUnsubscribeToken('user-1');
    expect(await verifyUnsubscribeToken(token)).toBe('user-1');
    expect(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString())).not.toHaveProperty('exp');
  });

  it('refuses a missing, altered or re-signed token with 400', async () => {
    const token = await signUnsubscribeToken('user-1');
    const [header, , signature] = token.split('.');
    const other = Buffer.from(JSON.stringify({ sub: 'user-2' })).toString('base64url');
    expect(await refusal(verifyUnsubscribeToken(undefined))).toBe('400 missing_token');
    expect(await refusal(verifyUnsubscribeToken(`${header}.${other}.${signature}`))).toBe('400 invalid_token');
    // the signature's first character changed (its last one carries bits a decoder may ignore)
    const altered = `${header}.${token.split('.')[1]}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    expect(await refusal(verifyUnsubscribeToken(altered))).toBe('400 invalid_token');
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'unsubscribe+jwt' })).toString('base64url')}.${other}.`;
    expect(await refusal(verifyUnsubscribeToken(unsigned))).toBe('400 invalid_token');
  });

  it('is not a session token: another key or another typ is refused', async () => {
    const sessionKey = new TextEncoder().encode('s'.repeat(40)); // the session key itself
    const withSessionKey = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'unsubscribe+jwt' })
      .setSubject('user-1')
      .sign(sessionKey);
    expect(await refusal(verifyUnsubscribeToken(withSessionKey))).toBe('400 invalid_token');
    useEnv({ STAGE: 'local', SESSION_SECRET: 's'.repeat(40), UNSUBSCRIBE_SECRET: 'u'.repeat(40) });
    const otherTyp = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('user-1')
      .sign(new TextEncoder().encode('u'.repeat(40)));
    expect(await refusal(verifyUnsubscribeToken(otherTyp))).toBe('400 invalid_token');
    expect(await verifyUnsubscribeToken(await signUnsubscribeToken('user-1'))).toBe('user-1');
  });

  it('in the cloud reads its own secret (never the session key) and refuses a short one', async () => {
    useEnv({ STAGE: 'cloud', SESSION_SECRET: undefined, SESSION_SECRET_ARN: 'arn:session', UNSUBSCRIBE_SECRET_ARN: 'arn:unsubscribe' });
    secrets.on(GetSecretValueCommand, { SecretId: 'arn:unsubscribe' }).resolves({ SecretString: 'k'.repeat(48) });
    expect(await verifyUnsubscribeToken(await signUnsubscribeToken('user-9'))).toBe('user-9');
    expect(secrets.commandCalls(GetSecretValueCommand).map((call) => call.args[0].input.SecretId)).toEqual(['arn:unsubscribe']);
    resetUnsubscribeKeyForTests();
    secrets.reset();
    secrets.on(GetSecretValueCommand).resolves({ SecretString: 'short' });
    await expect(signUnsubscribeToken('user-9')).rejects.toThrow(/at least 32 bytes/);
  });
});
