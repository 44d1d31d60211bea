import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { passkeyRemovalLink, readRemovalToken } from '../accounts/passkey-removal-link';
import { deviceCookie, DEVICE_COOKIE, trustedDeviceId } from '../accounts/trusted-device';
import { auditEmailHash } from './audit-privacy';
import { resetConfigForTests } from './config';
import { resetKeyRingForTests } from './session-keys';

const env = { ...process.env };
const secrets = mockClient(SecretsManagerClient);
const useEnv = (values: Record<string, string | undefined>) => {
  process.env = { ...env, ...values };
  resetConfigForTests();
  resetKeyRingForTests();
};
const cookieValue = (setCookie: string) => setCookie.split(';')[0].slice(DEVICE_COOKIE.length + 1);
afterEach(() => secrets.reset());
afterAll(() => {
  secrets.restore();
  useEnv({});
});

describe('trusted-device cookies, audit email hashes and passkey removal links across a session-key rotation', () => {
  const DEVICE_AUDIT_SECRET = 'd'.repeat(48);

  it('keeps a device trusted and a hash unchanged when only the session key changes (local keys)', async () => {
    useEnv({ STAGE: 'local', SESSION_SECRET: 'a'.repeat(40), DEVICE_AUDIT_SECRET });
    const cookie = `${DEVICE_COOKIE}=${cookieValue(await deviceCookie('user-1'))}`;
    const hash = await auditEmailHash('Ada@Example.com');
    useEnv({ STAGE: 'local', SESSION_SECRET: 'b'.repeat(40), SESSION_SECRET_PREVIOUS: 'a'.repeat(40), DEVICE_AUDIT_SECRET });
    expect(await trustedDeviceId(cookie, 'user-1')).toEqual(expect.any(String));
    expect(await auditEmailHash('ada@example.com')).toBe(hash);
    // its own key: a new one un-trusts the device and changes the hash, as docs/runbook.md says
    useEnv({ STAGE: 'local', SESSION_SECRET: 'b'.repeat(40), DEVICE_AUDIT_SECRET: 'e'.repeat(48) });
    expect(await trustedDeviceId(cookie, 'user-1')).toBeUndefined();
    expect(await auditEmailHash('ada@example.com')).not.toBe(hash);
  });

  it('keeps a "this wasn\'t me" link of a passkey notice valid when only the session key changes', async () => {
    const local = { STAGE: 'local', APP_URL: 'http://localhost:3000', DEVICE_AUDIT_SECRET };
    useEnv({ ...local, SESSION_SECRET: 'a'.repeat(40) });
    const token = new URL(await passkeyRemovalLink('user-1', 'passkey-1')).searchParams.get('token')!;
    useEnv({ ...local, SESSION_SECRET: 'b'.repeat(40) });
    expect(await readRemovalToken(token)).toEqual({ userId: 'user-1', passkeyId: 'passkey-1' });
    // signed with the DeviceAuditSecret: a new one of those is what ends the links
    useEnv({ ...local, SESSION_SECRET: 'b'.repeat(40), DEVICE_AUDIT_SECRET: 'e'.repeat(48) });
    await expect(readRemovalToken(token)).rejects.toMatchObject({ code: 'invalid_token' });
  });

  it('reads DeviceAuditSecret in the cloud, never the session secret', async () => {
    const cloud = {
      STAGE: 'cloud',
      SESSION_SECRET: undefined,
      SESSION_SECRET_ARN: 'arn:session',
      DEVICE_AUDIT_SECRET_ARN: 'arn:device-audit',
    };
    secrets.on(GetSecretValueCommand, { SecretId: 'arn:device-audit' }).resolves({ SecretString: DEVICE_AUDIT_SECRET });
    secrets.on(GetSecretValueCommand, { SecretId: 'arn:session' }).resolves({ SecretString: 'first-session-key-'.repeat(3) });
    useEnv(cloud);
    const cookie = `${DEVICE_COOKIE}=${cookieValue(await deviceCookie('user-1'))}`;
    const hash = await auditEmailHash('ada@example.com');
    secrets.on(GetSecretValueCommand, { SecretId: 'arn:session' }).resolves({ SecretString: 'second-session-key-'.repeat(3) });
    useEnv(cloud);
    expect(await trustedDeviceId(cookie, 'user-1')).toEqual(expect.any(String));
    expect(await auditEmailHash('ada@example.com')).toBe(hash);
    expect(secrets.commandCalls(GetSecretValueCommand).map((call) => call.args[0].input.SecretId)).not.toContain('arn:session');
  });
});
