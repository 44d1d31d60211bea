import { createHmac } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { config } from './config';
import { currentDate, nowSeconds } from './clock';
import { badRequest } from './errors';
import { checkLocalCall } from './local-twin';

/**
 * The token of a reminder's unsubscribe link (docs/product.md#unsubscribe, docs/security.md):
 * an HS256 JWT naming the account (`sub`) and nothing else. No session is needed and it does not
 * expire (a reminder read weeks later still unsubscribes), so it must be unforgeable and good
 * for nothing but this: its own key (never the session key, which the reminder worker must not
 * hold), its own `typ`, and it only ever sets how often reminders come (off, weekly, daily).
 *
 * Where the key comes from: cloud, the UnsubscribeSecret (UNSUBSCRIBE_SECRET_ARN; read by the
 * reminder worker that signs and the learner function that verifies); local, UNSUBSCRIBE_SECRET
 * or else a key derived from SESSION_SECRET (the app and `npm run reminders` share DATA_DIR's).
 */
const TYP = 'unsubscribe+jwt';
const MIN_KEY_BYTES = 32;
// created on the first read: the learner function verifies tokens on one route only
let secretsManager: SecretsManagerClient | undefined;
let key: Promise<Uint8Array> | undefined;

async function load(): Promise<Uint8Array> {
  const cfg = config();
  if (cfg.stage === 'local' && !cfg.unsubscribeSecretArn) {
    if (cfg.unsubscribeSecret) return checked(new TextEncoder().encode(cfg.unsubscribeSecret));
    if (!cfg.sessionSecret) throw new Error('UNSUBSCRIBE_SECRET or SESSION_SECRET is required locally');
    return createHmac('sha256', cfg.sessionSecret).update('career-program/unsubscribe').digest();
  }
  if (!cfg.unsubscribeSecretArn) throw new Error('UNSUBSCRIBE_SECRET_ARN is required in the cloud');
  secretsManager ??= new SecretsManagerClient({});
  const result = await secretsManager.send(new GetSecretValueCommand({ SecretId: cfg.unsubscribeSecretArn }));
  if (!result.SecretString) throw new Error('unsubscribe secret is empty');
  return checked(new TextEncoder().encode(result.SecretString.trim()));
}

function checked(bytes: Uint8Array): Uint8Array {
  if (bytes.length < MIN_KEY_BYTES) throw new Error(`the unsubscribe key must be at least ${MIN_KEY_BYTES} bytes`);
  return bytes;
}

async function signingKey(): Promise<Uint8Array> {
  const cfg = config();
  // the local key comes from the environment; the local runtime still checks the role may read the secret
  if (cfg.stage === 'local' && !cfg.unsubscribeSecretArn)
    await checkLocalCall('secretsmanager:GetSecretValue', { kind: 'secret', name: 'unsubscribe' });
  if (!key) {
    key = load();
    key.catch(() => {
      key = undefined; // retry on the next call instead of caching a failure
    });
  }
  return key;
}

export function resetUnsubscribeKeyForTests(): void {
  key = undefined;
}

export async function signUnsubscribeToken(userId: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: TYP })
    .setSubject(userId)
    .setIssuedAt(nowSeconds())
    .sign(await signingKey());
}

/** The account a token names; 400 `missing_token` / `invalid_token` otherwise (tampered, other key, other kind). */
export async function verifyUnsubscribeToken(token: string | undefined): Promise<string> {
  if (!token) throw badRequest('missing_token');
  try {
    const { payload } = await jwtVerify(token, await signingKey(), { algorithms: ['HS256'], typ: TYP, currentDate: currentDate() });
    if (typeof payload.sub !== 'string' || !payload.sub) throw badRequest('invalid_token');
    return payload.sub;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) throw badRequest('invalid_token');
    throw error;
  }
}
