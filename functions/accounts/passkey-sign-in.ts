import { accepts } from '../lib/account-states';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { firstRefusalThisHour } from '../lib/audit-once';
import { writeAudit } from '../lib/audit';
import { accountAudit, type Caller } from '../lib/caller';
import { db, tableName } from '../lib/db';
import { forbidden, unauthorized } from '../lib/errors';
import { keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { getUserById } from '../lib/users';
import { completeSignIn } from './login';
import { CHALLENGE_TTL_SECONDS, relyingParty, storeChallenge, takeChallenge, webauthn } from './passkey-challenges';
import { credentialHash, type PasskeyItem } from './passkey-records';
import { assertNotExhausted, consume, release, scopeKey } from './rate-limit';
import { nowIso } from '../lib/clock';

/**
 * Signing in with a passkey (docs/security.md#account-security-center): discoverable credentials and user
 * verification required, so a verified passkey is itself a multi-factor, phishing-resistant
 * authenticator and replaces the password + emailed code. The assertion check is shared with the
 * "Confirm it's you" step of adding a passkey (./passkey-registration.ts).
 */

/** The assertion's signature, challenge, origin, RP id and user verification checked against a stored passkey; null when refused. */
export async function verifyAssertion(stored: PasskeyItem, response: AuthenticationResponseJSON, expectedChallenge: string) {
  const { rpID, origin } = await relyingParty();
  const { verifyAuthenticationResponse } = await webauthn();
  try {
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: stored.credential_id,
        publicKey: new Uint8Array(Buffer.from(stored.public_key, 'base64url')),
        counter: Number(stored.counter ?? 0),
        transports: stored.transports,
      },
      requireUserVerification: true,
    });
    return verification.verified ? verification.authenticationInfo : null;
  } catch {
    return null;
  }
}

/**
 * Stores the new counter and the last use. The counter only moves forward: a concurrent use of a
 * cloned authenticator loses here (false).
 */
export async function recordPasskeyUse(stored: PasskeyItem, info: { newCounter: number; credentialBackedUp: boolean }): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.passkey(stored.user_id, stored.id),
        UpdateExpression: 'SET #counter = :counter, backed_up = :backed, last_used_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND #counter = :old',
        ExpressionAttributeNames: { '#counter': 'counter' },
        ExpressionAttributeValues: {
          ':counter': info.newCounter,
          ':old': Number(stored.counter ?? 0),
          ':backed': info.credentialBackedUp,
          ':now': nowIso(),
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** A stored passkey of the given account, read consistently. */
export const storedPasskey = async (userId: string, hash: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.passkey(userId, hash), ConsistentRead: true }))).Item as
    PasskeyItem | undefined;

/**
 * Passkey sign-ins have their own pool of failures per address block (/64 for IPv6): password
 * guesses behind a shared address do not block a passkey. A throttled answer is audited once per
 * hour and block.
 */
const POOL = 'passkeyFailuresPerIp';

async function throttledAudited<T>(caller: Caller, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    const blockKey = scopeKey(POOL, caller.ip);
    if ((error as { code?: string }).code === 'throttled' && (await firstRefusalThisHour('auth.login_throttled', `passkey:${blockKey}`)))
      await writeAudit({
        action: 'auth.login_throttled',
        entityType: 'user',
        entityId: 'unknown',
        newValues: { method: 'passkey', reason: 'ip', address_block: blockKey },
        ip: caller.ip,
        userAgent: caller.userAgent,
      });
    throw error;
  }
}

/** Sign-in step 1: options for a discoverable credential (no account named) and a challenge id. */
export async function startPasskeyLogin(caller: Caller) {
  await throttledAudited(caller, () => assertNotExhausted(POOL, caller.ip));
  const { rpID } = await relyingParty();
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({ rpID, userVerification: 'required', timeout: CHALLENGE_TTL_SECONDS * 1000 });
  return { challenge_id: await storeChallenge('login', options.challenge), options };
}

const isLocked = (user: UserRecord) => user.status === 'locked' || user.is_locked;

/**
 * Sign-in step 2: verifies the assertion and starts a session. The attempt is reserved in the
 * pool before anything is checked (parallel attempts cannot pass the limit) and given back once
 * the assertion is verified. Refusals match the password sign-in: an unknown credential or an
 * account that is not active → 401 `invalid_credentials`, a locked one → 403 `account_locked`,
 * an unverified one → 403 `email_not_verified` (these two audited once per hour and account).
 */
export async function finishPasskeyLogin(
  input: { challenge_id: string; response: unknown },
  caller: Caller,
): Promise<{ user: UserRecord; cookie: string; browserCookie: string }> {
  await throttledAudited(caller, () => consume(POOL, caller.ip, caller));
  const expectedChallenge = await takeChallenge(input.challenge_id, 'login');
  const response = input.response as AuthenticationResponseJSON;
  // The reservation stays: it is this failure's count.
  const refuse = async (reason: string, user?: UserRecord): Promise<never> => {
    await writeAudit(
      user
        ? accountAudit('auth.login_failed', user, caller, { new: { method: 'passkey', reason } }, null)
        : {
            action: 'auth.login_failed',
            entityType: 'user',
            entityId: 'unknown',
            newValues: { method: 'passkey', reason },
            ip: caller.ip,
            userAgent: caller.userAgent,
          },
    );
    throw unauthorized('invalid_credentials');
  };
  if (typeof response?.id !== 'string' || !response.id || response.id.length > 1400) return refuse('unknown_passkey');
  const hash = credentialHash(response.id);
  const lookup = await db().send(new GetCommand({ TableName: tableName(), Key: keys.passkeyLookup(hash), ConsistentRead: true }));
  const userId = lookup.Item?.user_id as string | undefined;
  const [stored, user] = userId ? await Promise.all([storedPasskey(userId, hash), getUserById(userId)]) : [undefined, undefined];
  if (!stored || !user) return refuse('unknown_passkey');
  // A discoverable credential names its account: it must be the one the credential belongs to.
  const handle = response.response?.userHandle;
  if (handle && Buffer.from(handle, 'base64url').toString() !== user.id) return refuse('user_handle_mismatch', user);

  const verified = await verifyAssertion(stored, response, expectedChallenge);
  if (!verified) return refuse('passkey_verification_failed', user);
  // Only an active account signs in (the allow-list of functions/lib/account-states.ts: a deleted
  // one, or one being purged, must not have personal data written again); locked is told apart,
  // as after a right password.
  if (!accepts('signedIn', user.status) && user.status !== 'locked') return refuse(user.status, user);
  // A verified passkey is no failure: the reservation goes back before these answers.
  if (isLocked(user)) return refuseOnce(user, caller, forbidden('account_locked'), 'account_locked');
  if (!user.verified) return refuseOnce(user, caller, forbidden('email_not_verified', { needsVerification: true }), 'email_not_verified');
  if (!(await recordPasskeyUse(stored, verified))) return refuse('counter_race', user);
  await release(POOL, caller.ip);
  return completeSignIn(user, caller, { method: 'passkey', passkey: hash.slice(0, 8) });
}

/** A verified passkey of a locked or unverified account: `auth.login_refused`, once per hour and account. */
async function refuseOnce(user: UserRecord, caller: Caller, error: Error, reason: string): Promise<never> {
  await release(POOL, caller.ip);
  if (await firstRefusalThisHour('auth.login_refused', `passkey:${user.id}`))
    await writeAudit(accountAudit('auth.login_refused', user, caller, { new: { method: 'passkey', reason } }, null));
  throw error;
}
