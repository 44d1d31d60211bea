import { accepts } from '../lib/account-states';
import { firstRefusalThisHour } from '../lib/audit-once';
import { writeAudit, type AuditInput } from '../lib/audit';
import { auditEmailHash } from '../lib/audit-privacy';
import { recordActivitySetting } from '../lib/activity';
import { badRequest, forbidden, throttled, unauthorized } from '../lib/errors';
import { startSession } from '../lib/session';
import { signInNote } from '../lib/sign-in-audit';
import { keys, PROFILE_SK } from '../lib/table';
import type { KnownBrowsers, UserRecord } from '../lib/user-record';
import { emailOwnerId, normalizeEmail } from '../lib/users';
import { batchGetItems } from '../lib/batch-items';
import { codeFailureOf, consumeCode, normalizeCode } from './codes';
import { accountAudit, type Caller } from '../lib/caller';
import { isSelfRestorable, RESTORE_PURPOSE, restoreStep } from './restorable-account';
import { deliver } from './emails/deliver';
import { loginCodeEmail } from './emails/login-code';
import { challengeCookie, isBoundTo, newBrowserBinding, openChallenge } from './login-challenge';
import { dummyHash, verifyPassword } from './passwords';
import {
  BACKOFF_FREE_FAILURES,
  backoffSeconds,
  assertRoomIn,
  consume,
  currentWindowKey,
  LoginThrottled,
  loginLimitKeys,
  loginSource,
  reserveLoginAttempt,
  undoneOnFailure,
} from './rate-limit';
import { deviceCookie, trustedDeviceId } from './trusted-device';
import { browserSignIn } from './known-browsers';
import { sendSecurityNotice } from './security-notices';
import { assertPasswordSignInPossible, takePasswordSignIn } from './admin-passkey-rule';
import { currentDate } from '../lib/clock';
import { isRandomId } from '../../shared/key-values';

/**
 * Two-step sign-in (docs/product.md#4-states-and-transitions): the password, then a 6-digit code emailed with a challenge id.
 * A wrong email and a wrong password look the same (status, body and, through a dummy hash,
 * time). A locked account is revealed only to someone who knows its password; so is a deletion
 * its owner may still undo (403 `account_deleted`); any other deleted account, one being erased,
 * and a restore request for an account that is not deleted never (each looks like a wrong
 * password, and is counted as one).
 */
const isLocked = (user: UserRecord) => user.status === 'locked' || user.is_locked;
/** Why a right password was refused as a wrong one, for the audit entry only. */
const refusedStatus = (user: UserRecord, purpose: 'sign_in' | 'restore') =>
  purpose === 'restore' && accepts('signIn', user.status) ? 'not_deleted' : user.status;

export async function startLogin(
  input: { email: string; password: string },
  caller: Caller,
  /** `restore`: the same password step opens the code that restores a deleted account (restorable-account.ts). */
  purpose: 'sign_in' | 'restore' = 'sign_in',
): Promise<{ challengeId: string; browserCookie: string }> {
  const email = normalizeEmail(input.email);
  // Started for every login, so the one-off cost of building it never marks an unknown email.
  const fallbackHash = dummyHash();
  const userId = email ? await emailOwnerId(email) : undefined;
  // docs/security.md#sign-in-a-stranger-cannot-lock-the-owner-out-guessing-stays-bounded: a browser this account signed in from before is counted on its own.
  const deviceId = await trustedDeviceId(caller.cookies, userId);
  const source = loginSource(caller, deviceId);
  // the account and the limits' items in one read
  const read = await batchGetItems(
    [...(userId ? [keys.user(userId)] : []), ...loginLimitKeys(email, source, Boolean(deviceId), caller.ip)],
    {
      consistentRead: true,
    },
  );
  const user = read.find((item) => item.sk === PROFILE_SK && item.id === userId) as UserRecord | undefined;
  const throttledLogin = async (error: unknown) => {
    if (!(error instanceof LoginThrottled)) return error;
    // once per hour and email: a flood of throttled tries is counted, not written one by one
    if (await firstRefusalThisHour('auth.login_throttled', email))
      await writeAudit(
        await loginAudit('auth.login_throttled', user, email, caller, {
          reason: error.reason,
          retry_after: error.retryAfter,
          trusted_device: Boolean(deviceId),
        }),
      );
    return throttled(error.retryAfter);
  };
  const attempt = await reserveLoginAttempt(email, source, Boolean(deviceId), caller, read).catch(async (error: unknown) => {
    throw await throttledLogin(error);
  });

  const passwordOk = await verifyPassword(input.password, user?.password_hash ?? (await fallbackHash));
  // Only the owner's right password reveals a deletion its owner asked for (and may undo).
  const restorable = Boolean(user && passwordOk && isSelfRestorable(user));
  // A sign-in takes the statuses of functions/lib/account-states.ts (a deleted account only when
  // restorable); a restore only a restorable account. Anything else answers exactly as a wrong
  // password, counted as one: a right password must not be told apart on an account that is
  // live (restore), deleted for good or being erased.
  const usable = restorable || (purpose === 'sign_in' && user?.status !== 'deleted' && accepts('signIn', user?.status));
  if (!user || !passwordOk || !usable) {
    // A burst that filled a pool meanwhile answers this failure 429, like the next attempt.
    const failures = await attempt.failed().catch(async (error: unknown) => {
      throw await throttledLogin(error);
    });
    await writeAudit(
      await loginAudit('auth.login_failed', user, email, caller, {
        reason: !user
          ? 'unknown_email'
          : !passwordOk
            ? 'wrong_password'
            : user.status === 'deleted'
              ? 'deleted'
              : refusedStatus(user, purpose),
        trusted_device: Boolean(deviceId),
      }),
    );
    if (failures === BACKOFF_FREE_FAILURES) {
      await writeAudit(
        await loginAudit('auth.login_backoff_started', user, email, caller, {
          failures,
          wait_seconds: backoffSeconds(failures),
        }),
      );
    }
    throw unauthorized('invalid_credentials');
  }
  if (restorable) return restoreStep(user, caller, purpose, attempt);
  const refused = isLocked(user) ? 'account_locked' : !user.verified ? 'email_not_verified' : undefined;
  if (refused) {
    await attempt.succeeded();
    await writeAudit(accountAudit('auth.login_refused', user, caller, { new: { reason: refused } }, null));
    throw refused === 'account_locked' ? forbidden(refused) : forbidden(refused, { needsVerification: true });
  }
  // an administrator who must use a passkey: no code is mailed (docs/security.md#administrators-sign-in-with-a-passkey)
  await undoneOnFailure(
    () => attempt.succeeded(),
    () => assertPasswordSignInPossible(user, caller),
  );

  // Each challenge is a mail and a fresh set of tries: counted per account with the pool's
  // give-back (given back when the mail could not be sent).
  const giveBackChallenge = await attempt.openingChallenge();
  const binding = newBrowserBinding();
  const challengeId = await undoneOnFailure(giveBackChallenge, () =>
    openChallenge(user, binding.hash, (code) =>
      deliver(loginCodeEmail(user.email, user.first_name, code), 'login_code', { account: user.id, ip: caller.ip }),
    ),
  );
  return { challengeId, browserCookie: challengeCookie(binding.value) };
}

/**
 * A sign-in audit entry: about the account when the email names one, else about `unknown` with
 * the typed text only as a keyed hash (docs/security.md#privacy-of-the-audit-log: it may be a password typed into the
 * wrong field, or someone else's address).
 */
async function loginAudit(
  action: string,
  user: UserRecord | undefined,
  email: string,
  caller: Caller,
  values: Record<string, unknown>,
): Promise<AuditInput> {
  if (user) return accountAudit(action, user, caller, { new: values }, null);
  return {
    action,
    entityType: 'user',
    entityId: 'unknown',
    newValues: { email_hash: await auditEmailHash(email), ...values },
    ip: caller.ip,
    userAgent: caller.userAgent,
  };
}

/**
 * The code step shared by sign-in and restore: per-address and per-account limits, then the
 * code checked against a challenge `belongs` accepts (a challenge it refuses counts as a wrong
 * code, even with the right digits). Answers the challenge and its account, read at once with
 * the limits' windows. Each try is counted on the challenge before the code is compared (the
 * write that reads it), so parallel guesses never compare more codes than a challenge allows;
 * the per-address and per-account windows are checked on that read and counted when the try
 * fails, each with a conditional write (a burst that fills one meanwhile is answered 429). The
 * race this leaves: tries that read the account's window in the same instant compare their
 * codes, at most the one live challenge's tries beyond the window (docs/security.md). A right
 * code writes none of them. A failure is audited.
 */
export async function checkChallengeCode(
  input: { email: string; code: string; challenge_id: string },
  caller: Caller,
  belongs: (item: Record<string, unknown>, email: string) => boolean,
): Promise<{ challenge: Record<string, unknown>; user?: UserRecord }> {
  const email = normalizeEmail(input.email);
  let userId: string | undefined;
  let user: UserRecord | undefined;
  try {
    if (!isRandomId(input.challenge_id)) throw badRequest('invalid_code');
    const challenge = await consumeCode(keys.challenge(input.challenge_id), normalizeCode(input.code), (item) => belongs(item, email), {
      revealAttempts: true,
      reserveTry: true,
      beforeCheck: async (item) => {
        userId = String(item.user_id);
        const read = await batchGetItems(
          [keys.user(userId), currentWindowKey('codeChecksPerIp', caller.ip), currentWindowKey('codeTriesPerAccount', userId)],
          { consistentRead: true },
        );
        user = read.find((found) => found.sk === PROFILE_SK) as UserRecord | undefined;
        await assertRoomIn('codeChecksPerIp', caller.ip, read, caller);
        await assertRoomIn('codeTriesPerAccount', userId, read, caller);
      },
    });
    return { challenge, user };
  } catch (error) {
    if ((error as { code?: string }).code === 'throttled') throw error;
    // a failed try: counted per address and, when a challenge named it, per account
    await consume('codeChecksPerIp', caller.ip, caller);
    if (userId) await consume('codeTriesPerAccount', userId, caller);
    await auditCodeFailure(error, caller);
    throw error;
  }
}

export async function finishLogin(
  input: { email: string; code: string; challenge_id: string },
  caller: Caller,
): Promise<{ user: UserRecord; cookie: string; browserCookie: string; deviceCookie: string }> {
  // Another browser's challenge, or one that restores a deleted account, is not this sign-in's.
  const { user } = await checkChallengeCode(
    input,
    caller,
    (item, email) => item.email_lower === email && isBoundTo(item, caller.cookies) && item.purpose !== RESTORE_PURPOSE,
  );
  // Locked, deleted or unverified since the password step, or a newer sign-in ended this
  // challenge (its delete may have lost a race with this check): no session.
  const reason = !user
    ? undefined
    : !accepts('signedIn', user.status) || isLocked(user) || !user.verified
      ? 'account_not_active'
      : user.login_challenge !== input.challenge_id
        ? 'superseded'
        : undefined;
  if (!user || reason) {
    if (user) await writeAudit(accountAudit('auth.2fa_failed', user, caller, { new: { reason } }, null));
    throw badRequest('invalid_code');
  }
  // the setting or the role may have changed since the password step
  const { operatorAllowance } = await takePasswordSignIn(user, caller);

  const signedIn = await completeSignIn(user, caller, operatorAllowance ? { operator_allowance: true } : undefined);
  return { ...signedIn, deviceCookie: await deviceCookie(user.id) };
}

/**
 * The end of every sign-in (password + code, or a passkey): a new session, and one write of the
 * account: the last sign-in time, today's activity and the browser among its known ones, the
 * write answering the known browsers it replaced (the new-sign-in notice when this one is new:
 * functions/accounts/known-browsers.ts). The session item carries the note the `auth.login`
 * audit entry (with how the person signed in, if not the default) is written from, off this
 * path (functions/lib/sign-in-audit.ts). Answers the browser's cookie with the session's.
 */
export async function completeSignIn(
  user: UserRecord,
  caller: Caller,
  auditValues?: Record<string, unknown>,
): Promise<{ user: UserRecord; cookie: string; browserCookie: string }> {
  const { cookie } = await startSession(user, caller, signInNote(user.email, auditValues));
  const now = currentDate();
  const browser = await browserSignIn(user, caller.cookies, now.getTime());
  // on a new day also the last-active day: its counters follow from the table's stream, off this
  // path (functions/lib/activity-aggregation.ts)
  const { before } = await recordActivitySetting(user, now, { last_login_at: now.toISOString(), known_browsers: browser.knownBrowsers });
  if (browser.isNew(before.known_browsers as KnownBrowsers | undefined)) await sendSecurityNotice(user, 'new_sign_in', caller);
  return { user: { ...user, last_login_at: now.toISOString() }, cookie, browserCookie: browser.cookie };
}

/** A wrong, expired or used-up sign-in code is a security event (docs/security.md#security-events-in-the-audit-log) of the challenge's account. */
async function auditCodeFailure(error: unknown, caller: Caller): Promise<void> {
  const failure = codeFailureOf(error);
  if (!failure?.userId) return; // no such challenge: nothing names an account
  await writeAudit({
    action: 'auth.2fa_failed',
    entityType: 'user',
    entityId: failure.userId,
    newValues: { reason: failure.reason },
    ip: caller.ip,
    userAgent: caller.userAgent,
  });
}
