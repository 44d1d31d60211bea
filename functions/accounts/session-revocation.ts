import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { writeAudit } from '../lib/audit';
import { accountAudit, type Caller } from '../lib/caller';
import { db, tableName } from '../lib/db';
import { notFound, unauthorized } from '../lib/errors';
import { endAllSessions } from '../lib/session';
import { keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { confirmIdentity, type IdentityProof } from './reauthentication';
import { isLive, sessionIdOf, sessionItems } from './sessions';
import { nowIso, nowMs } from '../lib/clock';
import { isRandomId } from '../../shared/key-values';

/**
 * Ending sessions from "Where you're signed in" (docs/security.md#account-security-center), after
 * "Confirm it's you". Apart from ./sessions.ts: the check may verify a passkey, and the WebAuthn
 * library stays out of the auth function that lists sessions.
 */
/** The audit action of a refused "Confirm it's you" before ending sessions. */
const REFUSED = 'auth.session_revocation_refused';

/** Ends one of the caller's sessions after "Confirm it's you"; `ended_current` tells the route to clear the cookie. */
export async function revokeSession(
  user: UserRecord,
  currentSessionId: string,
  sessionId: string,
  proof: IdentityProof,
  caller: Caller,
): Promise<{ endedCurrent: boolean }> {
  if (!isRandomId(sessionId)) throw notFound('session_not_found');
  await confirmIdentity(user, proof, caller, REFUSED);
  try {
    // marked ended, not deleted: the item is its sign-in's audit source until its TTL (functions/lib/session.ts endSession)
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.session(user.id, sessionId),
        UpdateExpression: 'SET ended_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(ended_at)',
        ExpressionAttributeValues: { ':now': nowIso() },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw notFound('session_not_found');
    throw error;
  }
  const endedCurrent = sessionId === currentSessionId;
  await writeAudit(accountAudit('auth.session_revoked', user, caller, { new: { session: sessionId.slice(0, 6), current: endedCurrent } }));
  return { endedCurrent };
}

/**
 * Ends every session of the caller except the current one, after "Confirm it's you": one write
 * bumps the account's session_version (every token of the old version fails the session check,
 * however many sessions there are), and the current session gets a fresh cookie carrying the new
 * version. `ended` counts the other sessions that were live.
 */
export async function revokeOtherSessions(
  user: UserRecord,
  current: { sessionId: string; authTime?: number },
  proof: IdentityProof,
  caller: Caller,
): Promise<{ ended: number; cookie?: string }> {
  await confirmIdentity(user, proof, caller, REFUSED);
  const at = nowMs();
  const ended = (await sessionItems(user.id)).filter((item) => sessionIdOf(item) !== current.sessionId && isLive(item, user, at)).length;
  // an account no longer active since the session check has no session left to keep
  const { cookie } = await endAllSessions(user.id, 'signedIn', current).catch((error: unknown) => {
    if (error instanceof ConditionalCheckFailedException) throw unauthorized();
    throw error;
  });
  await writeAudit(accountAudit('auth.sessions_revoked_others', user, caller, { new: { sessions_ended: ended } }));
  return { ended, cookie };
}
