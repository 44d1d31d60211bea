import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { accepts } from '../lib/account-states';
import { writeAudit } from '../lib/audit';
import { db, tableName } from '../lib/db';
import { badRequest } from '../lib/errors';
import { keys } from '../lib/table';
import { getUserByEmail, getUserById, normalizeEmail } from '../lib/users';
import { accountAudit, type Caller } from '../lib/caller';
import { deliver } from './emails/deliver';
import { loginCodeEmail } from './emails/login-code';
import { browserBindingOf, challengeCookie, openChallenge } from './login-challenge';
import { replacedCodesOf } from './codes';
import { consume, givingBackOnFailure } from './rate-limit';
import { resendVerificationCode } from './verification';
import { nowSeconds } from '../lib/clock';
import { isRandomId } from '../../shared/key-values';

/**
 * The two "Send a new code" buttons (docs/product.md#10-journeys): without them an unverified account or
 * a spent sign-in code is a dead end.
 */

/**
 * A new verification code for an unverified account. The answer is the same whether or not
 * the account exists (or is already verified): nothing is learned from it. Per IP it is limited
 * like the other public calls; per address it shares the one-a-minute / five-an-hour resend
 * limit with repeated registration, silently (the earlier code keeps working).
 */
export async function resendVerification(input: { email: string }, caller: Caller): Promise<void> {
  await consume('codeResendPerIp', caller.ip, caller);
  const email = normalizeEmail(input.email);
  if (!email) return;
  const user = await getUserByEmail(email);
  if (!user || user.verified || !accepts('verifyEmail', user.status)) return;
  await resendVerificationCode(user, caller);
}

const isLocked = (user: { status: string; is_locked?: boolean }) => user.status === 'locked' || Boolean(user.is_locked);

/**
 * A fresh sign-in challenge in place of a live one. Holding the challenge id proves the password
 * step was passed moments ago, so no password is asked again; the old challenge dies (its
 * spent tries cannot be reset by resending to the same id). Limited per address to one a minute
 * and five an hour, answered with 429 and `retry_after` so the screen can count down.
 */
export async function resendLoginCode(
  input: { email: string; challenge_id: string },
  caller: Caller,
): Promise<{ challengeId: string; browserCookie: string }> {
  await consume('codeResendPerIp', caller.ip, caller);
  if (!isRandomId(input.challenge_id)) throw badRequest('challenge_expired');
  const email = normalizeEmail(input.email);
  const found = await db().send(new GetCommand({ TableName: tableName(), Key: keys.challenge(input.challenge_id), ConsistentRead: true }));
  const challenge = found.Item;
  const binding = browserBindingOf(caller.cookies);
  // Gone, expired (TTL deletes lazily), someone else's or opened in another browser: the sign-in
  // must start over.
  if (
    !binding ||
    !challenge ||
    challenge.email_lower !== email ||
    challenge.browser_hash !== binding.hash ||
    nowSeconds() >= Number(challenge.expires_at)
  ) {
    throw badRequest('challenge_expired');
  }
  const user = await getUserById(String(challenge.user_id));
  if (!user || !accepts('signedIn', user.status) || isLocked(user) || !user.verified || user.login_challenge !== input.challenge_id) {
    throw badRequest('challenge_expired');
  }

  await consume('codeResendPerMinute', `login:${email}`, caller);
  await consume('codeResendPerHour', `login:${email}`, caller);

  // Until the new code is out, the old one is the learner's only way in: a send SES refuses
  // leaves it alive and is not counted (the unsent challenge expires with its TTL). The new
  // challenge ends the old one and stays bound to the same browser.
  const challengeId = await givingBackOnFailure(['codeResendPerMinute', 'codeResendPerHour'], `login:${email}`, () =>
    // the replaced code is kept (hashed) so that typing it is told apart from a wrong code
    openChallenge(
      user,
      binding.hash,
      (code) => deliver(loginCodeEmail(user.email, user.first_name, code), 'login_code', { account: user.id, ip: caller.ip }),
      {
        replaced_codes: replacedCodesOf(challenge),
      },
    ),
  );
  await writeAudit(accountAudit('auth.login_code_resent', user, caller));
  return { challengeId, browserCookie: challengeCookie(binding.value) };
}
