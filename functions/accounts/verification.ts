import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { auditPut } from '../lib/audit';
import { db, tableName } from '../lib/db';
import { badRequest } from '../lib/errors';
import { statsUpdate } from '../lib/stats';
import { keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { getUserByEmail } from '../lib/users';
import { consumeCode, issueCode, normalizeCode } from './codes';
import { accountAudit, type Caller } from './context';
import { deliver } from './emails/deliver';
import { verificationCodeEmail } from './emails/verification-code';
import { consume, tryConsume } from './rate-limit';

/** Email verification: the code sent at registration, and marking the account verified. */
export const VERIFY_EMAIL_PURPOSE = 'verify_email';

/** Issues a new verification code (the previous one dies) and emails it. */
export async function sendVerificationCode(user: Pick<UserRecord, 'id' | 'email' | 'first_name'>): Promise<void> {
  const code = await issueCode(keys.code(user.id, VERIFY_EMAIL_PURPOSE), { type: 'code', purpose: VERIFY_EMAIL_PURPOSE, user_id: user.id });
  await deliver(verificationCodeEmail(user.email, user.first_name, code));
}

/** The first code, at registration: always sent, and counted so a resend right after waits. */
export async function sendFirstVerificationCode(user: UserRecord): Promise<void> {
  await tryConsume('codeResendPerMinute', user.email_lower);
  await tryConsume('codeResendPerHour', user.email_lower);
  await sendVerificationCode(user);
}

/**
 * A resend (repeated registration): at most one a minute and five an hour per email. Beyond
 * that nothing is sent and the caller still answers `verification_pending`: the earlier code
 * keeps working.
 */
export async function resendVerificationCode(user: UserRecord): Promise<boolean> {
  if (!(await tryConsume('codeResendPerMinute', user.email_lower))) return false;
  if (!(await tryConsume('codeResendPerHour', user.email_lower))) return false;
  await sendVerificationCode(user);
  return true;
}

export async function verifyEmail(input: { email: string; code: string }, caller: Caller): Promise<void> {
  await consume('codeChecksPerIp', caller.ip);
  const user = await getUserByEmail(input.email);
  // An unknown, deleted or already verified account has no code to check: the same generic answer.
  if (!user || user.verified || user.status === 'deleted') throw badRequest('invalid_code');
  await consumeCode(keys.code(user.id, VERIFY_EMAIL_PURPOSE), normalizeCode(input.code));
  const now = new Date().toISOString();
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: keys.user(user.id),
              // Leaving the unverified cohort: the sparse gsi4 keys go (users.ts userIndexKeys).
              UpdateExpression: 'SET verified = :true, updated_at = :now ADD version :one REMOVE gsi4pk, gsi4sk',
              ConditionExpression: 'attribute_exists(pk) AND verified = :false AND #status <> :deleted',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':true': true, ':false': false, ':now': now, ':one': 1, ':deleted': 'deleted' },
            },
          },
          statsUpdate({ users_verified: 1 })!,
          auditPut(accountAudit('auth.email_verified', user, caller, { old: { verified: false }, new: { verified: true } })),
        ],
      }),
    );
  } catch (error) {
    // Verified concurrently by another request with the same code: already done.
    if (error instanceof TransactionCanceledException || error instanceof ConditionalCheckFailedException) return;
    throw error;
  }
}
