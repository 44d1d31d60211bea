import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { readCookie } from '../lib/session';
import { deviceAuditKey } from '../lib/device-audit-key';
import { currentDate, nowSeconds } from '../lib/clock';

/**
 * Trusted-device cookies (docs/security.md#sign-in-a-stranger-cannot-lock-the-owner-out-guessing-stays-bounded; OWASP "device cookies"). A browser that has
 * completed a sign-in (password + emailed code) or a password reset for an account gets a signed
 * cookie naming that account. Sign-in attempts that present it are counted apart from everyone
 * else's: their own backoff and a small hourly pool of their own, so a stranger who fills the
 * account's pool for unknown browsers cannot keep the owner out. The cookie proves nothing but
 * "this browser got in before"; it is never a session and grants no access by itself.
 */
export const DEVICE_COOKIE = '__Host-device';
const DEVICE_LIFETIME_SECONDS = 90 * 24 * 3600;
const AUDIENCE = 'career-program-device';
const ISSUER = 'career-program';

const deviceKey = () => deviceAuditKey('trusted-device-cookie').then((key) => new Uint8Array(key));

/** A new device cookie for the account (Set-Cookie value). */
export async function deviceCookie(userId: string, now = nowSeconds()): Promise<string> {
  const token = await new SignJWT({ did: randomBytes(12).toString('base64url') })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(userId)
    .setIssuedAt(now)
    .setExpirationTime(now + DEVICE_LIFETIME_SECONDS)
    .sign(await deviceKey());
  return `${DEVICE_COOKIE}=${token}; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=${DEVICE_LIFETIME_SECONDS}`;
}

/** The device id when the request's cookies carry a valid device cookie for this account. */
export async function trustedDeviceId(cookies: string | undefined, userId: string | undefined): Promise<string | undefined> {
  const token = readCookie(cookies, DEVICE_COOKIE);
  if (!token || !userId) return undefined;
  try {
    const { payload } = await jwtVerify(token, await deviceKey(), {
      currentDate: currentDate(),
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      subject: userId,
    });
    return typeof payload.did === 'string' && /^[\w-]{8,32}$/.test(payload.did) ? payload.did : undefined;
  } catch {
    return undefined; // forged, expired or for another account: an unknown browser
  }
}
