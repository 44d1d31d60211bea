import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { writeAudit } from '../lib/audit';
import { accountAudit, type Caller } from '../lib/caller';
import { nowIso } from '../lib/clock';
import { config } from '../lib/config';
import { db, tableName } from '../lib/db';
import { forbidden } from '../lib/errors';
import { keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';

/**
 * Administrators sign in with a passkey (docs/security.md#administrators-sign-in-with-a-passkey):
 * with the stage's `adminPasskeyRequired` on (prod), an administrator's password and emailed code
 * open no session. The password step refuses before any code is mailed, and the code steps
 * (sign-in, restore) refuse again before anything is written, so a challenge opened before the
 * setting or the role changed opens nothing either. The answer is 403 `passkey_required`, after
 * the right password only (a wrong one is `invalid_credentials` as for anyone), audited
 * `auth.login_refused` with that reason. A passkey sign-in is unaffected.
 *
 * The one way around it is an operator's: `npm run make-admin -- <email> --allow-password-sign-in`
 * (infra/ops/make-admin.ts) opens one password sign-in for the next 24 hours
 * (`password_sign_in_until` on the account), used up by the code step that opens the session, so
 * an administrator who lost every passkey signs in once and adds a new one in Settings.
 */
export const PASSKEY_REQUIRED_MESSAGE = 'Administrators sign in with a passkey. Use "Sign in with a passkey".';

/** The account must sign in with a passkey: an administrator, with the stage's setting on. */
export const passkeyRequired = (user: Pick<UserRecord, 'role'>) => user.role === 'admin' && config().adminPasskeyRequired;

/** An operator opened a password sign-in for the account and it has not been used or expired. */
const allowanceOpen = (user: Pick<UserRecord, 'password_sign_in_until'>, now: string) =>
  typeof user.password_sign_in_until === 'string' && user.password_sign_in_until > now;

async function refuse(user: UserRecord, caller: Caller): Promise<never> {
  await writeAudit(accountAudit('auth.login_refused', user, caller, { new: { reason: 'passkey_required' } }, null));
  throw forbidden('passkey_required', { message: PASSKEY_REQUIRED_MESSAGE });
}

/** The password step: 403 `passkey_required` when the account may not go on with a password (nothing is used up). */
export async function assertPasswordSignInPossible(user: UserRecord, caller: Caller): Promise<void> {
  if (passkeyRequired(user) && !allowanceOpen(user, nowIso())) await refuse(user, caller);
}

/**
 * The code step, before its session (or restore) is written: answers whether the operator's
 * allowance was used (removed from the account by a conditional write, so it opens one session
 * only), or refuses with 403 `passkey_required`.
 */
export async function takePasswordSignIn(user: UserRecord, caller: Caller): Promise<{ operatorAllowance: boolean }> {
  if (!passkeyRequired(user)) return { operatorAllowance: false };
  const now = nowIso();
  if (!allowanceOpen(user, now)) return refuse(user, caller);
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(user.id),
        UpdateExpression: 'REMOVE password_sign_in_until',
        ConditionExpression: 'password_sign_in_until > :now',
        ExpressionAttributeValues: { ':now': now },
      }),
    );
  } catch (error) {
    // used by a parallel sign-in, or expired, since the account was read
    if (error instanceof ConditionalCheckFailedException) return refuse(user, caller);
    throw error;
  }
  return { operatorAllowance: true };
}
