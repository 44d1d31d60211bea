import { randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { appUrl } from '../lib/app-url';
import { AUDIT_ACTION, auditPut, writeAudit } from '../lib/audit';
import { config } from '../lib/config';
import { db, tableName } from '../lib/db';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../lib/errors';
import type { ActiveSession } from '../lib/session';
import { keys, ttlIn } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { getUserById } from '../lib/users';
import { completeSignIn } from './login';
import { accountAudit, type Caller } from '../lib/caller';
import {
  credentialHash,
  deletePasskey,
  MAX_PASSKEYS,
  ownPasskey,
  passkeyItems,
  type PasskeyItem,
  type PasskeyView,
  viewOf,
} from './passkey-records';
import { passkeyRemovalLink } from './passkey-removal-link';
import { verifyPassword } from './passwords';
import { assertNotExhausted, consume, recordFailure } from './rate-limit';
import { sendSecurityNotice } from './security-notices';

/**
 * Passkeys (WebAuthn) with @simplewebauthn/server (docs/security.md#account-security-center).
 *
 * - Credentials: USER#<id> / PASSKEY#<sha256 of the credential id>, plus a lookup item
 *   PASSKEYID#<hash> / PASSKEY holding the user id, written and removed in one transaction.
 * - Challenges: WEBAUTHN#<id> / CHALLENGE, 5-minute TTL, deleted by the request that uses them
 *   (a conditional delete returning the old item: single use even under concurrent requests).
 * - Discoverable credentials and user verification required: a verified passkey is itself a
 *   multi-factor, phishing-resistant authenticator, so it replaces the password + emailed code.
 *
 * The library is loaded on first use only (through ./webauthn.ts, which also limits the
 * attestations accepted to those without certificates), so the other routes do not pay for it at start.
 */
export const CHALLENGE_TTL_SECONDS = 5 * 60;
/** Adding a passkey needs the current password again, or a sign-in at most this long ago. */
export const RECENT_SIGN_IN_SECONDS = 5 * 60;
const RP_NAME = '4-Week Career Program';
const CHALLENGE_ID = /^[\w-]{16,64}$/;

const webauthn = () => import('./webauthn');

/** The relying party: configured, or the app's own address (localhost locally, CloudFront or a custom domain). */
export async function relyingParty(): Promise<{ rpID: string; origin: string }> {
  const cfg = config();
  const app = new URL(await appUrl());
  return { rpID: cfg.webauthnRpId ?? app.hostname, origin: cfg.webauthnOrigin ?? app.origin };
}

async function storeChallenge(purpose: 'register' | 'login', challenge: string, userId?: string): Promise<string> {
  const challengeId = randomBytes(18).toString('base64url');
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...keys.webauthnChallenge(challengeId),
              type: 'webauthn_challenge',
              purpose,
              challenge,
              ...(userId ? { user_id: userId } : {}),
              expires_at: ttlIn(CHALLENGE_TTL_SECONDS),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    }),
  );
  return challengeId;
}

/** Takes the challenge (single use): gone, expired, of another purpose or account → 400 `invalid_challenge`. */
async function takeChallenge(challengeId: string, purpose: 'register' | 'login', userId?: string): Promise<string> {
  if (!CHALLENGE_ID.test(challengeId)) throw badRequest('invalid_challenge');
  let item: Record<string, unknown> | undefined;
  try {
    const result = await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.webauthnChallenge(challengeId),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_OLD',
      }),
    );
    item = result.Attributes;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw badRequest('invalid_challenge');
    throw error;
  }
  const expired = Number(item?.expires_at) <= Math.floor(Date.now() / 1000);
  if (!item || expired || item.purpose !== purpose || (userId !== undefined && item.user_id !== userId))
    throw badRequest('invalid_challenge');
  return String(item.challenge);
}

/** Step 1 of adding a passkey: re-authentication, then the creation options and a challenge id. */
export async function startPasskeyRegistration(session: ActiveSession, currentPassword: string | undefined, caller: Caller) {
  const { user } = session;
  const recent = Math.floor(Date.now() / 1000) - session.authTime <= RECENT_SIGN_IN_SECONDS;
  if (currentPassword) {
    // Bounds guessing of the current password by someone holding a stolen session.
    await consume('passwordChangesPerUser', user.id);
    if (!(await verifyPassword(currentPassword, user.password_hash))) throw badRequest('invalid_current_password');
  } else if (!recent) {
    throw forbidden('reauthentication_required');
  }
  const existing = await passkeyItems(user.id);
  if (existing.length >= MAX_PASSKEYS) throw conflict('passkey_limit_reached', { max: MAX_PASSKEYS });
  const { rpID } = await relyingParty();
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userName: user.email,
    userDisplayName: [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email,
    // The user handle a discoverable credential returns at sign-in: the account id.
    userID: new TextEncoder().encode(user.id),
    // ./webauthn.ts accepts only attestations without certificates: keep this 'none'
    attestationType: 'none',
    excludeCredentials: existing.map((item) => ({ id: item.credential_id, transports: item.transports })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
    timeout: CHALLENGE_TTL_SECONDS * 1000,
  });
  const challengeId = await storeChallenge('register', options.challenge, user.id);
  await writeAudit(accountAudit('auth.passkey_registration_started', user, caller));
  return { challenge_id: challengeId, options };
}

/** Step 2: verifies the authenticator's answer and stores the credential with its name. */
export async function finishPasskeyRegistration(
  user: UserRecord,
  input: { challenge_id: string; name: string; response: unknown },
  caller: Caller,
): Promise<PasskeyView> {
  const expectedChallenge = await takeChallenge(input.challenge_id, 'register', user.id);
  const { rpID, origin } = await relyingParty();
  const { verifyRegistrationResponse } = await webauthn();
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verification = await verifyRegistrationResponse({
      response: input.response as RegistrationResponseJSON,
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
    });
  } catch {
    throw badRequest('passkey_verification_failed');
  }
  if (!verification.verified) throw badRequest('passkey_verification_failed');
  const info = verification.registrationInfo;
  const hash = credentialHash(info.credential.id);
  const now = new Date().toISOString();
  const item: PasskeyItem = {
    ...keys.passkey(user.id, hash),
    type: 'passkey',
    id: hash,
    user_id: user.id,
    credential_id: info.credential.id,
    public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    transports: info.credential.transports?.length ? info.credential.transports : undefined,
    device_type: info.credentialDeviceType,
    backed_up: info.credentialBackedUp,
    aaguid: info.aaguid,
    name: input.name.trim(),
    created_at: now,
    last_used_at: null,
  };
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
          {
            Put: {
              TableName: tableName(),
              Item: { ...keys.passkeyLookup(hash), type: 'passkey_lookup', user_id: user.id },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          // The account must still exist and be usable when the credential lands.
          {
            ConditionCheck: {
              TableName: tableName(),
              Key: keys.user(user.id),
              ConditionExpression: '#status = :active',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':active': 'active' },
            },
          },
          auditPut(
            accountAudit('auth.passkey_added', user, caller, {
              new: { passkey: hash.slice(0, 8), name: item.name, backed_up: item.backed_up },
            }),
          ),
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) throw conflict('passkey_exists');
    throw error;
  }
  await sendSecurityNotice(user, 'passkey_added', caller, { passkeyName: item.name, removalLink: await passkeyRemovalLink(user.id, hash) });
  return viewOf(item);
}

export async function renamePasskey(user: UserRecord, passkeyId: string, name: string, caller: Caller): Promise<PasskeyView> {
  const before = await ownPasskey(user.id, passkeyId);
  const trimmed = name.trim();
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: keys.passkey(user.id, passkeyId),
              UpdateExpression: 'SET #name = :name',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeNames: { '#name': 'name' },
              ExpressionAttributeValues: { ':name': trimmed },
            },
          },
          auditPut(
            accountAudit('auth.passkey_renamed', user, caller, {
              old: { passkey: passkeyId.slice(0, 8), name: before.name },
              new: { name: trimmed },
            }),
          ),
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) throw notFound('passkey_not_found');
    throw error;
  }
  return viewOf({ ...before, name: trimmed });
}

export async function removePasskey(user: UserRecord, passkeyId: string, caller: Caller): Promise<void> {
  const before = await ownPasskey(user.id, passkeyId);
  await deletePasskey(
    user.id,
    passkeyId,
    accountAudit(AUDIT_ACTION.passkeyRemoved, user, caller, { old: { passkey: passkeyId.slice(0, 8), name: before.name } }),
  );
  await sendSecurityNotice(user, 'passkey_removed', caller, { passkeyName: before.name });
}

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
  const [stored, user] = userId
    ? await Promise.all([
        db()
          .send(new GetCommand({ TableName: tableName(), Key: keys.passkey(userId, hash), ConsistentRead: true }))
          .then((r) => r.Item as PasskeyItem | undefined),
        getUserById(userId),
      ])
    : [undefined, undefined];
  if (!stored || !user) return refuse('unknown_passkey');
  // A discoverable credential names its account: it must be the one the credential belongs to.
  const handle = response.response?.userHandle;
  if (handle && Buffer.from(handle, 'base64url').toString() !== user.id) return refuse('user_handle_mismatch', user);

  const { rpID, origin } = await relyingParty();
  const { verifyAuthenticationResponse } = await webauthn();
  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verification = await verifyAuthenticationResponse({
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
  } catch {
    return refuse('passkey_verification_failed', user);
  }
  if (!verification.verified) return refuse('passkey_verification_failed', user);
  if (isLocked(user)) throw forbidden('account_locked');
  // Only an active account signs in: a deleted one, or one being purged, must not have personal
  // data written again.
  if (user.status !== 'active') return refuse(user.status, user);
  if (!user.verified) throw forbidden('email_not_verified', { needsVerification: true });

  const now = new Date().toISOString();
  try {
    // The counter only moves forward: a concurrent use of a cloned authenticator loses here.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.passkey(user.id, hash),
        UpdateExpression: 'SET #counter = :counter, backed_up = :backed, last_used_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND #counter = :old',
        ExpressionAttributeNames: { '#counter': 'counter' },
        ExpressionAttributeValues: {
          ':counter': verification.authenticationInfo.newCounter,
          ':old': Number(stored.counter ?? 0),
          ':backed': verification.authenticationInfo.credentialBackedUp,
          ':now': now,
        },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return refuse('counter_race', user);
    throw error;
  }
  return completeSignIn(user, caller, { method: 'passkey', passkey: hash.slice(0, 8) });
}
