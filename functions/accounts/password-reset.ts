import { createHash, randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { RESET_TOKEN_TTL_MINUTES } from '../../shared/constants';
import { accepts, statusCondition } from '../lib/account-states';
import { appUrl } from '../lib/app-url';
import { AUDIT_ACTION, auditPuts, writeAudit } from '../lib/audit';
import { db, tableName } from '../lib/db';
import type { Delivery } from '../lib/email';
import { badRequest } from '../lib/errors';
import { logger } from '../lib/logger';
import { keys, SK, ttlIn } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { getUserByEmail, getUserById, normalizeEmail } from '../lib/users';
import { accountAudit, type Caller } from '../lib/caller';
import { deliver } from './emails/deliver';
import { passwordResetEmail } from './emails/password-reset';
import { sendSecurityNotice } from './security-notices';
import { assertStrongPassword, hashPassword } from './passwords';
import { consume } from './rate-limit';
import { passkeyKeysOf } from './passkey-records';
import { deviceCookie } from './trusted-device';
import { nowIso, nowSeconds } from '../lib/clock';
import { isConditionRefusal, transactWrite } from '../lib/transact-write';

/**
 * Password reset by emailed link (docs/security.md): 32 random bytes, only their sha256 stored
 * (RESET#<hash>), 1-hour life, single use. The request answers the same whether or not the
 * account exists; confirming sets the new hash and ends every session.
 * A token belongs to the account's state when it was made (docs/security.md#reset-links-and-the-token-in-the-address): it carries the
 * session_version and the email, so every live link dies when the password changes (reset,
 * change: both bump session_version), the account is locked, or an admin changes the email.
 */
export const RESET_TTL_SECONDS = RESET_TOKEN_TTL_MINUTES * 60;
/** Requests take at least this long, so a real account's extra work (write + SES) does not show. */
export const RESET_REQUEST_MIN_MS = 400;

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');
const invalidOrExpired = () => badRequest('invalid_or_expired');
const canReset = (user: UserRecord | undefined): user is UserRecord =>
  Boolean(user && accepts('resetPassword', user.status) && !user.is_locked);
const resetAccepted = statusCondition('resetPassword');

/**
 * Creates a token and emails the link; also used by the admin "Send password reset" action (no
 * `caller`: the mail counts against the account's allowances only).
 */
export async function sendPasswordReset(
  user: Pick<UserRecord, 'id' | 'email' | 'first_name' | 'session_version'> & { verified?: boolean },
  caller?: Caller,
): Promise<Delivery> {
  const token = randomBytes(32).toString('base64url');
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.resetToken(hashToken(token)),
        type: 'reset',
        user_id: user.id,
        session_version: user.session_version ?? 0,
        email_lower: user.email.trim().toLowerCase(),
        created_at: nowIso(),
        expires_at: ttlIn(RESET_TTL_SECONDS),
      },
    }),
  );
  const link = `${await appUrl()}/reset-password?token=${encodeURIComponent(token)}`;
  // An unverified address may not be the registrant's: no name they typed (docs/security.md#registration-of-an-unverified-address-and-what-mail-carries).
  return deliver(passwordResetEmail(user.email, user.verified === false ? '' : user.first_name, link), 'password_reset', {
    account: user.id,
    ip: caller?.ip,
  });
}

export async function requestPasswordReset(email: string, caller: Caller): Promise<void> {
  const started = performance.now();
  await consume('resetRequestsPerIp', caller.ip, caller);
  await consume('resetRequestsPerEmail', normalizeEmail(email), caller);
  const user = email.trim() ? await getUserByEmail(email) : undefined;
  if (canReset(user)) {
    try {
      await sendPasswordReset(user, caller);
      await writeAudit(accountAudit('auth.password_reset_requested', user, caller));
    } catch (error) {
      // The answer must not differ for real accounts: log, and answer as always.
      logger.error('password reset email failed', { error: error as Error });
    }
  }
  const remaining = RESET_REQUEST_MIN_MS - (performance.now() - started);
  if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
}

type ResetItem = { pk: string; user_id: string; session_version?: number; email_lower?: string };

async function findToken(token: string | undefined) {
  if (!token || token.length > 200) return undefined;
  const found = await db().send(new GetCommand({ TableName: tableName(), Key: keys.resetToken(hashToken(token)), ConsistentRead: true }));
  const item = found.Item;
  if (!item || Number(item.expires_at) <= nowSeconds()) return undefined;
  return item as ResetItem;
}

/** Still the account's state the token was made for (docs/security.md#reset-links-and-the-token-in-the-address). Tokens made before this rule carry no version: dead too. */
const matchesAccount = (item: ResetItem, user: UserRecord) =>
  item.session_version === (user.session_version ?? 0) && item.email_lower === user.email_lower;

/**
 * The token's account when the token is live and still matches it; otherwise `invalid_or_expired`
 * after an audit entry (a bad reset token is a security event, docs/security.md#security-events-in-the-audit-log; about the account when the
 * token names one). Checks per IP are limited so guessing tokens is bounded and cannot flood the log.
 */
async function liveToken(token: string | undefined, caller: Caller): Promise<{ item: ResetItem; user: UserRecord }> {
  await consume('resetTokenChecksPerIp', caller.ip, caller);
  const item = await findToken(token);
  const user = item ? await getUserById(item.user_id) : undefined;
  if (item && canReset(user) && matchesAccount(item, user)) return { item, user };
  const reason = !item
    ? 'unknown_or_expired'
    : !user
      ? 'account_gone'
      : !canReset(user)
        ? 'account_not_active'
        : 'password_or_email_changed';
  await writeAudit(
    user
      ? accountAudit('auth.password_reset_token_rejected', user, caller, { new: { reason } }, null)
      : {
          action: 'auth.password_reset_token_rejected',
          entityType: 'user',
          entityId: 'unknown',
          newValues: { reason },
          ip: caller.ip,
          userAgent: caller.userAgent,
        },
  );
  throw invalidOrExpired();
}

export async function validateResetToken(token: string | undefined, caller: Caller): Promise<void> {
  await liveToken(token, caller);
}

/** Sets the new password; answers a trusted-device cookie for this browser (the owner proved the inbox; docs/security.md#sign-in-a-stranger-cannot-lock-the-owner-out-guessing-stays-bounded). */
export async function confirmPasswordReset(
  input: { token?: string; password: string; password2: string },
  caller: Caller,
): Promise<{ deviceCookie: string }> {
  const { user } = await liveToken(input.token, caller);
  assertStrongPassword(input.password, user.email);
  if (input.password !== input.password2) throw badRequest('password_mismatch');

  const passwordHash = await hashPassword(input.password);
  // A passkey added by someone who held the account must not outlive its recovery: the reset
  // removes every passkey with the new password (at most MAX_PASSKEYS, well within a transaction).
  const passkeys = await passkeyKeysOf(user.id);
  try {
    await transactWrite({
      TransactItems: [
        // Single use: the token goes in the same transaction that uses it.
        {
          Delete: { TableName: tableName(), Key: keys.resetToken(hashToken(input.token!)), ConditionExpression: 'attribute_exists(pk)' },
        },
        {
          Update: {
            TableName: tableName(),
            Key: keys.user(user.id),
            // session_version + 1 ends every session at once (what endAllSessions does),
            // here atomically with the new password so no old session outlives it.
            UpdateExpression: 'SET password_hash = :hash, updated_at = :now ADD session_version :one, version :one',
            // The token's account state must still hold at the write (a concurrent change kills it).
            ConditionExpression: `attribute_exists(pk) AND session_version = :version AND email_lower = :email AND ${resetAccepted.expression}`,
            ExpressionAttributeNames: resetAccepted.names,
            ExpressionAttributeValues: {
              ...resetAccepted.values,
              ':hash': passwordHash,
              ':now': nowIso(),
              ':one': 1,
              ':version': user.session_version ?? 0,
              ':email': user.email_lower,
            },
          },
        },
        ...passkeys.map((key) => ({ Delete: { TableName: tableName(), Key: key } })),
        ...auditPuts(
          accountAudit(AUDIT_ACTION.passwordReset, user, caller, {
            new: { sessions_ended: true, passkeys_removed: passkeys.filter((key) => key.sk.startsWith(SK.passkey)).length },
          }),
        ),
      ],
    });
  } catch (error) {
    if (isConditionRefusal(error)) throw invalidOrExpired();
    throw error;
  }
  await sendSecurityNotice(user, 'password_reset', caller);
  return { deviceCookie: await deviceCookie(user.id) };
}
