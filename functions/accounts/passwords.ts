import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { dictionary } from '@zxcvbn-ts/language-common';
import { passwordIsEmail, passwordLengthOk } from '../../shared/account-rules';
import { config } from '../lib/config';
import { badRequest } from '../lib/errors';

/**
 * Password hashing and policy (DESIGN §5). scrypt with OWASP's parameters; the hash string
 * names its own parameters (`scrypt$<log2N>$<r>$<p>$<salt>$<hash>`), so a cost change later
 * still verifies older hashes.
 */
export const SCRYPT_R = 8;
export const SCRYPT_P = 1;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;
/** scrypt needs 128·N·r bytes (128 MiB at N = 2^17); Node's default cap is 32 MiB. */
const MAX_MEMORY = 256 * 1024 * 1024;

/** The parameters new hashes get: N = 2^17 in production (config), lowered only by tests. */
export function scryptParameters() {
  return { log2N: config().passwordHashLog2N, r: SCRYPT_R, p: SCRYPT_P };
}

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string, params = scryptParameters()): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, { N: 2 ** params.log2N, r: params.r, p: params.p, maxmem: MAX_MEMORY });
  return ['scrypt', params.log2N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** False for a wrong password or a malformed/foreign hash string (never throws on bad input). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [log2N, r, p] = parts.slice(1, 4).map(Number);
  if (![log2N, r, p].every(Number.isInteger) || log2N < 10 || log2N > 20 || r < 1 || r > 32 || p < 1 || p > 4) return false;
  const salt = Buffer.from(parts[4], 'base64');
  const expected = Buffer.from(parts[5], 'base64');
  if (expected.length !== KEY_LENGTH) return false;
  const actual = await scrypt(password, salt, { N: 2 ** log2N, r, p, maxmem: MAX_MEMORY });
  return timingSafeEqual(actual, expected);
}

let dummy: Promise<string> | undefined;
/**
 * A hash of a random password at the current cost: an unknown email is checked against it so
 * it takes as long as a wrong password for a real account (no enumeration by timing).
 */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  return dummy;
}

/** How many of the most common passwords are refused (DESIGN §5 asks for at least 3,000). */
export const COMMON_PASSWORD_COUNT = 10_000;
let common: Set<string> | undefined;
/** The list is ordered by frequency; built lazily so cold starts of other routes do not pay. */
export function commonPasswords(): Set<string> {
  common ??= new Set(dictionary['passwords-common'].slice(0, COMMON_PASSWORD_COUNT).map((p) => p.toLowerCase()));
  return common;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

/**
 * Length 8..128, not a common password, not the email. Throws 400 `weak_password`, or
 * `common_password` for a long-enough password from the common list, so the form can give the
 * real reason instead of a misleading length rule (docs/journeys.md).
 */
export function assertStrongPassword(password: string, email: string): void {
  if (!passwordLengthOk(password) || passwordIsEmail(password, email)) throw badRequest('weak_password');
  if (isCommonPassword(password)) throw badRequest('common_password');
}
