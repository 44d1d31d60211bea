import { createHash } from 'node:crypto';
import { config } from './config';
import { checkLocalCall } from './local-twin';
import { clearParameterCachesForTests, readSecret } from './parameters';

/**
 * The session signing keys (docs/security.md#session-signing-keys). A key ring: the first key signs, every key
 * verifies, each known by a key id (`kid` in the token header). Rotation without signing anyone
 * out: put the new key first and keep the old one after it until the last token it signed has
 * expired (12 hours), then drop it.
 *
 * Where the ring comes from:
 * - cloud: only Secrets Manager (SESSION_SECRET_ARN). The secret holds either one key as plain
 *   text, or JSON `{"keys":[{"kid":"2026-11","secret":"…"},{"kid":"2026-05","secret":"…"}]}`.
 * - local: SESSION_SECRET (signs), optionally SESSION_SECRET_PREVIOUS (comma-separated, verify).
 * Every key must be at least 32 bytes.
 */
export const MIN_KEY_BYTES = 32;
/**
 * The ring is re-read after functions/lib/parameters.ts's maxAge; a token with an unknown kid
 * makes a warm function re-read it sooner, at most this often.
 */
const REFRESH_AFTER_MS = 60_000;

export interface SigningKey {
  kid: string;
  key: Uint8Array;
}
export interface KeyRing {
  current: SigningKey;
  byKid: Map<string, SigningKey>;
}

/** A key without an explicit id is named by its own hash (stable, reveals nothing). */
const derivedKid = (secret: string) => createHash('sha256').update(secret).digest('base64url').slice(0, 12);

function keyOf(secret: string, kid = derivedKid(secret)): SigningKey {
  const key = new TextEncoder().encode(secret);
  if (key.length < MIN_KEY_BYTES)
    throw new Error(`session signing key "${kid}" is ${key.length} bytes; at least ${MIN_KEY_BYTES} are required`);
  return { kid, key };
}

function ringOf(keys: SigningKey[]): KeyRing {
  if (!keys.length) throw new Error('no session signing key');
  return { current: keys[0], byKid: new Map(keys.map((entry) => [entry.kid, entry])) };
}

/** Parses the secret's text: one plain key, or the JSON key list (first signs). */
export function parseKeyRing(text: string, previous: string[] = []): KeyRing {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    const parsed = JSON.parse(trimmed) as { keys?: Array<{ kid?: string; secret?: string }> };
    if (!Array.isArray(parsed.keys)) throw new Error('session secret JSON must be {"keys":[{"kid","secret"}…]}');
    return ringOf(parsed.keys.map((entry) => keyOf(String(entry.secret ?? ''), entry.kid ? String(entry.kid) : undefined)));
  }
  return ringOf([keyOf(trimmed), ...previous.map((secret) => keyOf(secret))]);
}

let forcedAt = -Infinity;
/** The parsed ring of the secret text last read (parsing is redone only when the text changes). */
let parsed: { text: string; ring: KeyRing } | undefined;

async function load(forceFetch = false): Promise<KeyRing> {
  const cfg = config();
  // Locally the keys come from the environment: no AWS call, no AWS account needed (the local
  // runtime still checks that this function's role may read the secret).
  if (cfg.stage === 'local' && cfg.sessionSecret) {
    await checkLocalCall('secretsmanager:GetSecretValue', { kind: 'secret', name: 'session' });
    return parseKeyRing(cfg.sessionSecret, cfg.sessionSecretPrevious);
  }
  const text = await readSecret(String(cfg.sessionSecretArn), { forceFetch });
  if (!text) throw new Error('session secret is empty');
  if (parsed?.text !== text) parsed = { text, ring: parseKeyRing(text) };
  return parsed.ring;
}

/** The key ring (Secrets Manager through Powertools Parameters, cached with maxAge). */
export function keyRing(): Promise<KeyRing> {
  return load();
}

/** After a rotation a warm function meets tokens of a newer key: re-read, rate-limited. */
export async function refreshKeyRing(): Promise<KeyRing> {
  if (performance.now() - forcedAt < REFRESH_AFTER_MS) return keyRing();
  forcedAt = performance.now();
  return load(true);
}

/** Tests switch keys: forget the cached ring. */
export function resetKeyRingForTests(): void {
  parsed = undefined;
  forcedAt = -Infinity;
  clearParameterCachesForTests();
}
