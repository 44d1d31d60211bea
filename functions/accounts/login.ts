import { randomBytes } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { writeAudit } from '../lib/audit';
import { recordActivity } from '../lib/activity';
import { db, tableName } from '../lib/db';
import { badRequest, forbidden, unauthorized } from '../lib/errors';
import { startSession } from '../lib/session';
import { keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { getUserByEmail, getUserById, normalizeEmail } from '../lib/users';
import { consumeCode, issueCode, normalizeCode } from './codes';
import { accountAudit, type Caller } from './context';
import { deliver } from './emails/deliver';
import { loginCodeEmail } from './emails/login-code';
import { dummyHash, verifyPassword } from './passwords';
import { assertLoginAllowed, assertNotExhausted, consume, recordFailure, recordLoginFailure, resetLoginFailures } from './rate-limit';

/**
 * Two-step sign-in (SPEC §4): the password, then a 6-digit code emailed with a challenge id.
 * A wrong email and a wrong password look the same (status, body and, through a dummy hash,
 * time). A locked account is revealed only to someone who knows its password; a deleted one
 * never (it looks like a wrong password).
 */
const isLocked = (user: UserRecord) => user.status === 'locked' || user.is_locked;

export async function startLogin(input: { email: string; password: string }, caller: Caller): Promise<{ challengeId: string }> {
  const email = normalizeEmail(input.email);
  // Started for every login, so the one-off cost of building it never marks an unknown email.
  const fallbackHash = dummyHash();
  await assertNotExhausted('loginFailuresPerIp', caller.ip);
  await assertLoginAllowed(email);
  await assertNotExhausted('loginFailuresPerAccount', email);

  const user = email ? await getUserByEmail(email) : undefined;
  const passwordOk = await verifyPassword(input.password, user?.password_hash ?? (await fallbackHash));
  if (!user || !passwordOk || user.status === 'deleted') {
    await recordLoginFailure(email);
    await recordFailure('loginFailuresPerAccount', email);
    await recordFailure('loginFailuresPerIp', caller.ip);
    await writeAudit(
      user
        ? accountAudit('auth.login_failed', user, caller, { new: { reason: passwordOk ? 'deleted' : 'wrong_password' } }, null)
        : { action: 'auth.login_failed', entityType: 'user', entityId: 'unknown', newValues: { email, reason: 'unknown_email' }, ip: caller.ip, userAgent: caller.userAgent },
    );
    throw unauthorized('invalid_credentials');
  }
  await resetLoginFailures(email);
  if (isLocked(user)) throw forbidden('account_locked');
  if (!user.verified) throw forbidden('email_not_verified', { needsVerification: true });

  const challengeId = randomBytes(18).toString('base64url');
  const code = await issueCode(keys.challenge(challengeId), { type: 'challenge', user_id: user.id, email_lower: user.email_lower });
  await deliver(loginCodeEmail(user.email, user.first_name, code));
  return { challengeId };
}

export async function finishLogin(
  input: { email: string; code: string; challenge_id: string },
  caller: Caller,
): Promise<{ user: UserRecord; cookie: string }> {
  await consume('codeChecksPerIp', caller.ip);
  if (!input.challenge_id || !/^[\w-]{1,64}$/.test(input.challenge_id)) throw badRequest('invalid_code');
  const email = normalizeEmail(input.email);
  const challenge = await consumeCode(keys.challenge(input.challenge_id), normalizeCode(input.code), (item) => item.email_lower === email, {
    revealAttempts: true,
  });
  const user = await getUserById(String(challenge.user_id));
  // Locked, deleted or unverified since the password step: no session.
  if (!user || user.status !== 'active' || isLocked(user) || !user.verified) throw badRequest('invalid_code');

  const { cookie } = await startSession(user);
  const now = new Date().toISOString();
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.user(user.id),
      UpdateExpression: 'SET last_login_at = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':now': now },
    }),
  );
  await recordActivity(user);
  await writeAudit(accountAudit('auth.login', user, caller));
  return { user: { ...user, last_login_at: now }, cookie };
}
