import { checkName, isEmailShape } from '../../shared/account-rules';
import { sendSecurityNotice } from '../accounts/security-notices';
import { sendVerificationCode } from '../accounts/verification';
import { AUDIT_ACTION, auditPuts } from '../lib/audit';
import { tableName } from '../lib/db';
import { ApiError, badRequest, conflict } from '../lib/errors';
import { logger } from '../lib/logger';
import { statsUpdate, unverifiedDeltas } from '../lib/stats';
import { indexKeys, keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { normalizeEmail, searchItemWrites } from '../lib/users';
import { adminAudit, type AdminCaller } from '../lib/admin-caller';
import { mutateUser, type TransactItem } from '../accounts/user-mutation';

export interface ProfilePatch {
  first_name?: unknown;
  last_name?: unknown;
  email?: unknown;
}

type Changes = Partial<Pick<UserRecord, 'first_name' | 'last_name' | 'email'>>;

/** The registration rules and codes (shared/account-rules.ts) for the fields that came. */
function validate(patch: ProfilePatch): Changes {
  const changes: Changes = {};
  for (const field of ['first_name', 'last_name'] as const) {
    if (patch[field] === undefined) continue;
    const problem = checkName(patch[field]);
    if (problem) throw badRequest(`${field}_${problem}`);
    changes[field] = (patch[field] as string).trim();
  }
  if (patch.email !== undefined) {
    if (typeof patch.email !== 'string' || !patch.email.trim()) throw badRequest('email_required');
    if (!isEmailShape(patch.email)) throw badRequest('invalid_email');
    changes.email = patch.email.trim();
  }
  if (!Object.keys(changes).length) throw badRequest('missing_fields', { fields: ['first_name', 'last_name', 'email'] });
  return changes;
}

/**
 * Edits names and email. A new email moves the EMAIL# uniqueness guard in the same transaction
 * (taken → 409 `email_taken`), makes the account unverified and sends a verification code to
 * the new address. The search items of changed fields are rewritten. A soft-deleted account is
 * refused with 409 `already_deleted`, one being erased with 409 `account_being_erased`.
 */
export async function updateProfile(userId: string, patch: ProfilePatch, caller: AdminCaller): Promise<void> {
  const wanted = validate(patch);
  // a soft-deleted account waits for restore or erasure unchanged (lock and reset refuse it too);
  // one being erased refuses every change (functions/lib/account-states.ts)
  const emailChanged = await mutateUser(userId, 'editProfile', (user) => {
    const changes: Changes = {};
    for (const [field, value] of Object.entries(wanted) as [keyof Changes, string][]) if (user[field] !== value) changes[field] = value;
    const newEmail = changes.email !== undefined && normalizeEmail(changes.email) !== user.email_lower ? changes.email : undefined;
    const after = { ...user, ...changes };
    // a new email makes the account unverified: its search items say so too
    const extra: TransactItem[] = searchItemWrites(user, { ...after, verified: newEmail ? false : user.verified });
    const guardIndex = extra.length;
    const set: Record<string, unknown> = { ...changes };
    if (newEmail) {
      extra.push(
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.email(newEmail), type: 'email', user_id: user.id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Delete: {
            TableName: tableName(),
            Key: keys.email(user.email),
            ConditionExpression: 'user_id = :id',
            ExpressionAttributeValues: { ':id': user.id },
          },
        },
      );
      set.email_lower = normalizeEmail(newEmail);
      set.verified = false;
      Object.assign(set, indexKeys.usersUnverified(user));
      const counted = statsUpdate({
        users_verified: user.verified ? -1 : 0,
        ...unverifiedDeltas(user, { ...user, verified: false }),
      });
      if (counted) extra.push(counted);
    } else if (changes.email !== undefined) {
      set.email = changes.email; // only the letter case changed: same guard, same verification
    }
    const before = Object.fromEntries(Object.keys(changes).map((field) => [field, user[field as keyof Changes]]));
    if (newEmail) Object.assign(before, { verified: user.verified });
    const afterValues = { ...changes, ...(newEmail ? { verified: false } : {}) };
    extra.push(
      ...auditPuts(adminAudit(caller, AUDIT_ACTION.adminUserUpdate, { type: 'user', id: user.id }, { old: before, new: afterValues })),
    );
    return {
      set,
      extra,
      onExtraConflict: newEmail ? { index: guardIndex, error: conflict('email_taken') } : undefined,
      result: newEmail ? { ...after, email: newEmail, previousEmail: user.email } : undefined,
    };
  });
  if (emailChanged) {
    // The change is done: a code that cannot go out now (the mail budget's open share, SES) does
    // not turn it into an error; the learner asks for a new one ("Send a new code").
    await sendVerificationCode(emailChanged).catch((error: unknown) => {
      if (!(error instanceof ApiError)) throw error;
      logger.error('verification code after an email change failed', { error_name: error.code });
    });
    // Security notices to both addresses (docs/security.md#account-security-center).
    const { previousEmail } = emailChanged;
    await sendSecurityNotice(emailChanged, 'email_changed_old', caller, { to: previousEmail, otherEmail: emailChanged.email });
    await sendSecurityNotice(emailChanged, 'email_changed_new', caller, { otherEmail: previousEmail });
  }
}
