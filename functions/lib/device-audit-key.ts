import { createHmac } from 'node:crypto';
import { config } from './config';
import { checkLocalCall } from './local-twin';
import { readSecret } from './parameters';

/**
 * The key of trusted-device cookies, of the audit log's keyed email hashes and of the "this
 * wasn't me" links of passkey notices (docs/security.md#keys-that-outlive-a-session-key-rotation).
 * All must stay stable for weeks or months: a device cookie lives 90 days, a removal link 30 days
 * in a mailbox, and an admin compares hashes across the whole audit retention. Derived from the
 * session key, every rotation of that key (or a leak that forces one) would un-trust every device,
 * break every link and change every hash, so they come from a secret of their own, held only by
 * the functions that set or check device cookies or links or write those hashes.
 *
 * Where it comes from: cloud, the DeviceAuditSecret (DEVICE_AUDIT_SECRET_ARN); local,
 * DEVICE_AUDIT_SECRET (the local runtime generates it in DATA_DIR), or else derived from
 * SESSION_SECRET (one-off local scripts and test setups that set only that).
 */
export type DeviceAuditPurpose = 'trusted-device-cookie' | 'audit-email-hash' | 'passkey-removal-link';
const MIN_KEY_BYTES = 32;

async function secretText(): Promise<string> {
  const cfg = config();
  if (cfg.stage === 'local' && !cfg.deviceAuditSecretArn) {
    // the key comes from the environment; the local runtime still checks the role may read the secret
    await checkLocalCall('secretsmanager:GetSecretValue', { kind: 'secret', name: 'device-audit' });
    if (cfg.deviceAuditSecret) return cfg.deviceAuditSecret;
    if (!cfg.sessionSecret) throw new Error('DEVICE_AUDIT_SECRET or SESSION_SECRET is required locally');
    return createHmac('sha256', cfg.sessionSecret).update('career-program/device-audit').digest('base64url');
  }
  if (!cfg.deviceAuditSecretArn) throw new Error('DEVICE_AUDIT_SECRET_ARN is required in the cloud');
  const text = (await readSecret(cfg.deviceAuditSecretArn))?.trim();
  if (!text) throw new Error('device and audit secret is empty');
  return text;
}

/** The key for one purpose (HMAC of the secret, domain-separated by `purpose`). */
export async function deviceAuditKey(purpose: DeviceAuditPurpose): Promise<Buffer> {
  const secret = await secretText();
  if (Buffer.byteLength(secret) < MIN_KEY_BYTES) throw new Error(`the device and audit key must be at least ${MIN_KEY_BYTES} bytes`);
  return createHmac('sha256', secret).update(`career-program/${purpose}`).digest();
}
