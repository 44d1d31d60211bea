import { accepts } from '../lib/account-states';
import { checkRegistration, type RegistrationInput } from '../../shared/account-rules';
import { ApiError, badRequest, conflict } from '../lib/errors';
import { writeAudit } from '../lib/audit';
import { canonicalTimeZone } from '../lib/time-zone';
import { getUserByEmail, insertUser, normalizeEmail } from '../lib/users';
import { accountAudit, type Caller } from '../lib/caller';
import { assertStrongPassword, hashPassword } from './passwords';
import { assertWindowOpen, consume, countAnyway } from './rate-limit';
import { type PendingRegistration, resendVerificationCode, sendFirstVerificationCode } from './verification';

/**
 * Registration (docs/product.md#5-validation-rules, #8-error-catalogue): validates as the form does plus the common-password rule, then
 * creates the unverified account and emails a verification code. An address that is already
 * registered answers `already_registered`, or `verification_pending` (with a fresh code,
 * unless resends are throttled) while it is unverified. Those answers tell whether an address
 * has an account (the product's messages), so they are also counted per client address block
 * (`registeredAnswersPerIp`): once its window is full, every registration from that block is
 * refused until the window ends, whatever the address, so the refusal tells nothing itself.
 */
export async function register(input: RegistrationInput & { time_zone?: unknown }, caller: Caller): Promise<void> {
  const problem = checkRegistration(input);
  if (problem) {
    const { error, ...details } = problem;
    throw badRequest(error, details);
  }
  // optional: the browser's zone, for reminders in the learner's morning (absent: UTC)
  const timeZone = input.time_zone === undefined ? undefined : canonicalTimeZone(input.time_zone);
  if (input.time_zone !== undefined && !timeZone) throw badRequest('invalid_time_zone');
  const email = (input.email as string).trim();
  const password = input.password as string;
  assertStrongPassword(password, email);

  await consume('registerPerIp', caller.ip, caller);
  await consume('registerPerEmail', normalizeEmail(email), caller);
  // Checked before the address is looked up, so a refusal says nothing about it
  // (docs/security.md#registration-tells-whether-an-address-is-registered).
  await assertWindowOpen('registeredAnswersPerIp', caller.ip, caller);

  const existing = await getUserByEmail(email);
  if (existing) {
    await countAnyway('registeredAnswersPerIp', caller.ip);
    await answerExisting(existing, caller, async () => ({
      password_hash: await hashPassword(password),
      first_name: (input.first_name as string).trim(),
      last_name: (input.last_name as string).trim(),
    }));
  }

  let user;
  try {
    user = await insertUser({
      email,
      first_name: input.first_name as string,
      last_name: input.last_name as string,
      password_hash: await hashPassword(password),
      ...(timeZone ? { time_zone: timeZone } : {}),
    });
  } catch (error) {
    // Lost a race with a concurrent registration of the same address: answer like a repeat.
    if (error instanceof ApiError && error.code === 'already_registered') {
      await countAnyway('registeredAnswersPerIp', caller.ip);
      const winner = await getUserByEmail(email);
      if (winner && !winner.verified) throw conflict('verification_pending');
    }
    throw error;
  }
  await writeAudit(
    accountAudit('auth.register', user, caller, { new: { email: user.email, first_name: user.first_name, last_name: user.last_name } }),
  );
  await sendFirstVerificationCode(user, caller);
}

/**
 * A repeat of a registered address. Still unverified: a fresh code carries this registration's
 * password and names, applied when that code verifies the address (docs/security.md#registration-of-an-unverified-address-and-what-mail-carries).
 */
async function answerExisting(
  existing: NonNullable<Awaited<ReturnType<typeof getUserByEmail>>>,
  caller: Caller,
  pending: () => Promise<PendingRegistration>,
): Promise<never> {
  if (existing.verified || !accepts('signedIn', existing.status) || existing.is_locked) throw conflict('already_registered');
  if (await resendVerificationCode(existing, caller, pending))
    await writeAudit(accountAudit('auth.register_repeated', existing, caller, {}, null));
  throw conflict('verification_pending');
}
