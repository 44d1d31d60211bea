import { createHash, randomBytes } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { RESET_TOKEN_TTL_MINUTES } from '../../shared/constants';
import { appUrl } from '../lib/app-url';
import { auditPut, writeAudit } from '../lib/audit';
import { db, tableName } from '../lib/db';
import type { Delivery } from '../lib/email';
import { badRequest } from '../lib/errors';
import { logger } from '../lib/logger';
import { keys, ttlIn } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { getUserByEmail, getUserById, normalizeEmail } from '../lib/users';
import { accountAudit, type Caller } from './context';
import { deliver } from './emails/deliver';
import { passwordResetEmail } from './emails/password-reset';
import { sendSecurityNotice } from './security-notices';
import { assertStrongPassword, hashPassword } from './passwords';
import { consume, resetLoginFailures } from './rate-limit';

/**
 * Password reset by emailed link (DESIGN §5): 32 random bytes, only their sha256 stored
 * (RESET#<hash>), 1-hour life, single use. The request answers the same whether or not the
 * account exists; confirming sets the new hash and ends every session.
 */
export const RESET_TTL_SECONDS = RESET_TOKEN_TTL_MINUTES * 60;
/** Requests take at least this long, so a real account's extra work (write + SES) does not show. */
export const RESET_REQUEST_MIN_MS = 400;

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');
const invalidOrExpired = () => badRequest('invalid_or_expired');
const canReset = (user: UserRecord | undefined): user is UserRecord => Boolean(user && user.status === 'active' && !user.is_locked);

/** Creates a token and emails the link; also used by the admin "Send password reset" action. */
export async function sendPasswordReset(user: Pick<UserRecord, 'id' | 'email' | 'first_name'>): Promise<Delivery> {
  const token = randomBytes(32).toString('base64url');
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.resetToken(hashToken(token)), type: 'reset', user_id: user.id, created_at: new Date().toISOString(), expires_at: ttlIn(RESET_TTL_SECONDS) },
    }),
  );
  const link = `${await appUrl()}/reset-password?token=${encodeURIComponent(token)}`;
  return deliver(passwordResetEmail(user.email, user.first_name, link));
}

export async function requestPasswordReset(email: string, caller: Caller): Promise<void> {
  const started = Date.now();
  await consume('resetRequestsPerIp', caller.ip);
  await consume('resetRequestsPerEmail', normalizeEmail(email));
  const user = email.trim() ? await getUserByEmail(email) : undefined;
  if (canReset(user)) {
    try {
      await sendPasswordReset(user);
      await writeAudit(accountAudit('auth.password_reset_requested', user, caller));
    } catch (error) {
      // The answer must not differ for real accounts: log, and answer as always.
      logger.error('password reset email failed', { error: error as Error });
    }
  }
  const remaining = RESET_REQUEST_MIN_MS - (Date.now() - started);
  if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
}

async function findToken(token: string | undefined) {
  if (!token || token.length > 200) return undefined;
  const found = await db().send(new GetCommand({ TableName: tableName(), Key: keys.resetToken(hashToken(token)), ConsistentRead: true }));
  const item = found.Item;
  if (!item || Number(item.expires_at) <= Math.floor(Date.now() / 1000)) return undefined;
  return item as { pk: string; user_id: string };
}

export async function validateResetToken(token: string | undefined): Promise<void> {
  if (!(await findToken(token))) throw invalidOrExpired();
}

export async function confirmPasswordReset(input: { token?: string; password: string; password2: string }, caller: Caller): Promise<void> {
  const item = await findToken(input.token);
  const user = item ? await getUserById(item.user_id) : undefined;
  if (!item || !canReset(user)) throw invalidOrExpired();
  assertStrongPassword(input.password, user.email);
  if (input.password !== input.password2) throw badRequest('password_mismatch');

  const passwordHash = await hashPassword(input.password);
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          // Single use: the token goes in the same transaction that uses it.
          { Delete: { TableName: tableName(), Key: keys.resetToken(hashToken(input.token!)), ConditionExpression: 'attribute_exists(pk)' } },
          {
            Update: {
              TableName: tableName(),
              Key: keys.user(user.id),
              // session_version + 1 ends every session at once (what endAllSessions does),
              // here atomically with the new password so no old session outlives it.
              UpdateExpression: 'SET password_hash = :hash, updated_at = :now ADD session_version :one, version :one',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':hash': passwordHash, ':now': new Date().toISOString(), ':one': 1 },
            },
          },
          auditPut(accountAudit('auth.password_reset', user, caller, { new: { sessions_ended: true } })),
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) throw invalidOrExpired();
    throw error;
  }
  // The owner proved control of the inbox: earlier failed sign-ins no longer count.
  await resetLoginFailures(user.email_lower);
  await sendSecurityNotice(user, 'password_reset', caller);
}
