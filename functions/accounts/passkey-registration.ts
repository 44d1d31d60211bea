import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { auditPuts, writeAudit } from '../lib/audit';
import { accountAudit, type Caller } from '../lib/caller';
import { tableName } from '../lib/db';
import { isConditionRefusal, transactWrite } from '../lib/transact-write';
import { badRequest, conflict, notFound } from '../lib/errors';
import { keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { CHALLENGE_TTL_SECONDS, relyingParty, storeChallenge, takeChallenge, webauthn } from './passkey-challenges';
import { credentialHash, MAX_PASSKEYS, passkeyItems, type PasskeyItem, type PasskeyView, viewOf } from './passkey-records';
import { defaultPasskeyName } from './passkey-names';
import { confirmIdentity, type IdentityProof } from './reauthentication';
import { sendSecurityNotice } from './security-notices';
import { nowIso } from '../lib/clock';

/**
 * Adding a passkey (docs/security.md#account-security-center): credentials are stored at USER#<id> /
 * PASSKEY#<sha256 of the credential id>, plus a lookup item PASSKEYID#<hash> / PASSKEY holding
 * the user id, written and removed in one transaction. Discoverable credentials with user
 * verification required, attestation "none" (./webauthn.ts).
 */
const RP_NAME = '4-Week Career Program';

/** "Confirm it's you" with a passkey: assertion options limited to the account's own passkeys. */
export async function startPasskeyConfirmation(user: UserRecord) {
  const existing = await passkeyItems(user.id);
  if (existing.length === 0) throw notFound('passkey_not_found');
  const { rpID } = await relyingParty();
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID,
    userVerification: 'required',
    allowCredentials: existing.map((item) => ({ id: item.credential_id, transports: item.transports })),
    timeout: CHALLENGE_TTL_SECONDS * 1000,
  });
  return { challenge_id: await storeChallenge('confirm', options.challenge, user.id), options };
}

/** Step 1 of adding a passkey: "Confirm it's you", then the creation options and a challenge id. */
export async function startPasskeyRegistration(user: UserRecord, proof: IdentityProof, caller: Caller) {
  // a wrong password or a refused passkey is audited as auth.passkey_registration_refused
  await confirmIdentity(user, proof, caller, 'auth.passkey_registration_refused');
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
  input: { challenge_id: string; name?: string; response: unknown },
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
  const now = nowIso();
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
    name: input.name?.trim() || defaultPasskeyName(info.aaguid, caller.userAgent),
    created_at: now,
    last_used_at: null,
  };
  try {
    // a conflicting transaction (another write on the account right now) is retried, never
    // answered as a credential already registered
    await transactWrite({
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
        ...auditPuts(
          accountAudit('auth.passkey_added', user, caller, {
            new: { passkey: hash.slice(0, 8), name: item.name, backed_up: item.backed_up },
          }),
        ),
      ],
    });
  } catch (error) {
    if (isConditionRefusal(error)) throw conflict('passkey_exists');
    throw error;
  }
  await sendSecurityNotice(user, 'passkey_added', caller, { passkeyName: item.name, passkeyId: hash });
  return viewOf(item);
}
