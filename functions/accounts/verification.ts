import { accepts } from '../lib/account-states';
import { auditPuts } from '../lib/audit';
import { tableName } from '../lib/db';
import { badRequest } from '../lib/errors';
import { failedConditions } from '../lib/retry';
import { statsUpdate, unverifiedDeltas } from '../lib/stats';
import { indexAttributes, keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { getUserByEmail, searchItemWrites } from '../lib/users';
import { consumeCode, issueCode, normalizeCode } from './codes';
import { accountAudit, type Caller } from '../lib/caller';
import { deliver } from './emails/deliver';
import { verificationCodeEmail } from './emails/verification-code';
import { consume, givingBackOnFailure, tryConsume } from './rate-limit';
import { nowIso } from '../lib/clock';

/** Email verification: the code sent at registration, and marking the account verified. */
export const VERIFY_EMAIL_PURPOSE = 'verify_email';

/**
 * A repeated registration of a still-unverified address (docs/security.md#registration-of-an-unverified-address-and-what-mail-carries): the password and
 * names it chose, kept on the new code's item. Verifying with that code sets them, so whoever
 * proves the inbox signs in with the password *they* chose, never an earlier registrant's.
 */
export interface PendingRegistration {
  password_hash: string;
  first_name: string;
  last_name: string;
}

/** Issues a new verification code (the previous one dies) and emails it. */
export async function sendVerificationCode(
  user: Pick<UserRecord, 'id' | 'email' | 'first_name'>,
  pending?: PendingRegistration,
): Promise<void> {
  const code = await issueCode(keys.code(user.id, VERIFY_EMAIL_PURPOSE), {
    type: 'code',
    purpose: VERIFY_EMAIL_PURPOSE,
    user_id: user.id,
    ...(pending ? { pending_registration: pending } : {}),
  });
  await deliver(verificationCodeEmail(user.email, code), 'verification', { account: user.id });
}

const RESEND_LIMITS = ['codeResendPerMinute', 'codeResendPerHour', 'verificationCodesPerDay'] as const;

/**
 * The first code, at registration: always sent, and counted once sent so a resend right after
 * waits (a code that never went out, SES refusing, makes nobody wait).
 */
export async function sendFirstVerificationCode(user: UserRecord, caller: Caller): Promise<void> {
  await sendVerificationCode(user);
  for (const limit of RESEND_LIMITS) await tryConsume(limit, user.email_lower, caller);
}

/**
 * A resend (repeated registration): at most one a minute, five an hour and ten a day (the first
 * code included) per email. Beyond that nothing is sent and the caller still answers
 * `verification_pending`: the earlier code keeps working. A send SES refuses is not counted.
 */
export async function resendVerificationCode(
  user: UserRecord,
  caller: Caller,
  pending?: () => Promise<PendingRegistration>,
): Promise<boolean> {
  // the caller's address and browser go into the `security.throttled` entry of a refused resend
  if (!(await tryConsume('codeResendPerMinute', user.email_lower, caller))) return false;
  if (!(await tryConsume('codeResendPerHour', user.email_lower, caller))) return false;
  if (!(await tryConsume('verificationCodesPerDay', user.email_lower, caller))) return false;
  await givingBackOnFailure(RESEND_LIMITS, user.email_lower, async () => sendVerificationCode(user, pending ? await pending() : undefined));
  return true;
}

export async function verifyEmail(input: { email: string; code: string }, caller: Caller): Promise<void> {
  await consume('codeChecksPerIp', caller.ip, caller);
  const found = await getUserByEmail(input.email);
  // An unknown, deleted, erased or already verified account has no code to check: the same generic answer.
  if (!found || found.verified || !accepts('verifyEmail', found.status)) throw badRequest('invalid_code');
  let user: UserRecord = found;
  const now = nowIso();
  // The code is spent in the same transaction that verifies the account (retried with jitter on
  // conflicts): either both happen or neither, so a 503 leaves the code usable for a retry. A
  // repeated registration's password and names ride on the code and apply now (docs/security.md#registration-of-an-unverified-address-and-what-mail-carries).
  const verifyWrites = (item: Record<string, unknown>) => {
    const pending = item.pending_registration as PendingRegistration | undefined;
    const renamed = pending ? { ...user, first_name: pending.first_name, last_name: pending.last_name } : user;
    // The admin search follows new names and the verification (users.ts searchItemWrites).
    const searchChanges = searchItemWrites(user, { ...renamed, verified: true });
    return [
      {
        Update: {
          TableName: tableName(),
          Key: keys.user(user.id),
          // Leaving the unverified cohort: the sparse index keys go (users.ts userIndexKeys).
          UpdateExpression: `SET verified = :true, updated_at = :now${pending ? ', password_hash = :hash, first_name = :first, last_name = :last' : ''} ADD version :one REMOVE ${indexAttributes('usersUnverified').join(', ')}`,
          // the status read is still the status (the unverified-by-status counters move from it)
          ConditionExpression: 'attribute_exists(pk) AND verified = :false AND #status = :status',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':true': true,
            ':false': false,
            ':now': now,
            ':one': 1,
            ':status': user.status,
            ...(pending ? { ':hash': pending.password_hash, ':first': pending.first_name, ':last': pending.last_name } : {}),
          },
        },
      },
      ...searchChanges,
      statsUpdate({ users_verified: 1, ...unverifiedDeltas(user, { ...user, verified: true }) })!,
      ...auditPuts(
        accountAudit('auth.email_verified', user, caller, {
          old: { verified: false, ...(pending ? { first_name: user.first_name, last_name: user.last_name } : {}) },
          new: {
            verified: true,
            ...(pending ? { first_name: pending.first_name, last_name: pending.last_name, password_replaced: true } : {}),
          },
        }),
      ),
    ];
  };
  for (let attempt = 1; ; attempt++) {
    try {
      await consumeCode(keys.code(user.id, VERIFY_EMAIL_PURPOSE), normalizeCode(input.code), undefined, { alongWith: verifyWrites });
      return;
    } catch (error) {
      // The account changed meanwhile: verified by another request (done), deleted (no code to
      // check), or locked / unlocked by an admin (verify again from its new status).
      if (failedConditions(error).includes(1)) {
        const fresh = await getUserByEmail(input.email);
        if (fresh?.verified && accepts('verifyEmail', fresh.status)) return;
        if (
          fresh &&
          fresh.id === user.id &&
          !fresh.verified &&
          accepts('verifyEmail', fresh.status) &&
          fresh.status !== user.status &&
          attempt < 3
        ) {
          user = fresh;
          continue;
        }
        throw badRequest('invalid_code');
      }
      throw error;
    }
  }
}
