import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
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
import { assertNotExhausted, recordFailure } from './rate-limit';

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
          ':now': new Date().toISOString(),
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

/** Sign-in step 1: options for a discoverable credential (no account named) and a challenge id. */
export async function startPasskeyLogin(caller: Caller) {
  await assertNotExhausted('loginFailuresPerIp', caller.ip);
  const { rpID } = await relyingParty();
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({ rpID, userVerification: 'required', timeout: CHALLENGE_TTL_SECONDS * 1000 });
  return { challenge_id: await storeChallenge('login', options.challenge), options };
}

const isLocked = (user: UserRecord) => user.status === 'locked' || user.is_locked;

/**
 * Sign-in step 2: verifies the assertion and starts a session. Refusals match the password
 * sign-in: an unknown credential or a deleted account → 401 `invalid_credentials`, a locked one →
 * 403 `account_locked`, an unverified one → 403 `email_not_verified`.
 */
export async function finishPasskeyLogin(
  input: { challenge_id: string; response: unknown },
  caller: Caller,
): Promise<{ user: UserRecord; cookie: string }> {
  await assertNotExhausted('loginFailuresPerIp', caller.ip);
  const expectedChallenge = await takeChallenge(input.challenge_id, 'login');
  const response = input.response as AuthenticationResponseJSON;
  const refuse = async (reason: string, user?: UserRecord): Promise<never> => {
    await recordFailure('loginFailuresPerIp', caller.ip);
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
  if (isLocked(user)) throw forbidden('account_locked');
  // Only an active account signs in: a deleted one, or one being purged, must not have personal
  // data written again.
  if (user.status !== 'active') return refuse(user.status, user);
  if (!user.verified) throw forbidden('email_not_verified', { needsVerification: true });

  if (!(await recordPasskeyUse(stored, verified))) return refuse('counter_race', user);
  return completeSignIn(user, caller, { method: 'passkey', passkey: hash.slice(0, 8) });
}
