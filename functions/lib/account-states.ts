import { tableName } from './db';
import { conflict } from './errors';
import { keys } from './table';
import type { UserRecord, UserStatus } from './user-record';

/**
 * Which account statuses each action accepts (docs/security.md#account-states-an-allow-list-per-action):
 * an allow-list per action, defined here once. A status nobody named, `purging` above all (a hard
 * delete or the erasure is removing the account, functions/admin/purge-job.ts), is refused by
 * every change: a change that put the search items back or moved the status would make the
 * purge's last step (a delete conditioned on `purging`) fail forever, and the personal data would
 * never be erased. Where the action's write is conditional, the accepted statuses are also part of
 * its condition ({@link statusCondition}), so a change that races the purge's start loses whole.
 */
export const ACCEPTED_STATUSES = {
  // An administrator's actions in the user drawer (functions/admin/)
  lock: ['active'],
  /** Also a locked account that was deleted since (its `is_locked` flag stays). */
  unlock: ['active', 'locked', 'deleted'],
  softDelete: ['active', 'locked'],
  restore: ['deleted'],
  editProfile: ['active', 'locked'],
  sendPasswordReset: ['active', 'locked'],
  invalidateSessions: ['active', 'locked', 'deleted'],
  overrideModule: ['active', 'locked', 'deleted'],
  revokeCertificate: ['active', 'locked', 'deleted'],
  removePasskey: ['active', 'locked', 'deleted'],
  /** Starts the purge of a deleted account, or resumes one under way: the only action a `purging` account takes. */
  hardDelete: ['deleted', 'purging'],

  // The person's own (functions/accounts/): refused the way a deleted account is
  /** The password step: a locked account hears `account_locked`, a deletion its owner may undo `account_deleted`. */
  signIn: ['active', 'locked', 'deleted'],
  /** An account its owner deleted, within the retention period (restorable-account.ts). */
  selfRestore: ['deleted'],
  /**
   * Every request with a session, and the sign-in's code step that opens one: any other status has
   * none (functions/lib/session.ts), so none of the person's own actions reaches another status.
   */
  signedIn: ['active'],
  /** A reset link asked for or used; an unlocked account only (password-reset.ts). */
  resetPassword: ['active'],
  /** The email verification code: checked, or sent again. */
  verifyEmail: ['active', 'locked'],
  /** The reminder links of an email (unsubscribe, frequency) and a new passkey's "this wasn't me" link. */
  emailLink: ['active', 'locked', 'deleted'],
} as const satisfies Record<string, readonly UserStatus[]>;

export type AccountAction = keyof typeof ACCEPTED_STATUSES;

/** The code of every change refused because the account is being erased (409). */
export const BEING_ERASED = 'account_being_erased';

/** Whether `action` may act on an account of this status. */
export const accepts = (action: AccountAction, status: UserStatus | undefined): boolean =>
  status !== undefined && (ACCEPTED_STATUSES[action] as readonly UserStatus[]).includes(status);

/**
 * An administrator's action on a status it does not accept: 409 with the action's own code for
 * the status (`already_locked`, `already_deleted`, `not_deleted`: a stale drawer learns what
 * happened), `account_being_erased` for an account being erased and any status without one.
 */
const REFUSALS: Partial<Record<AccountAction, Partial<Record<UserStatus, string>>>> = {
  lock: { locked: 'already_locked', deleted: 'already_deleted' },
  softDelete: { deleted: 'already_deleted' },
  restore: { active: 'not_deleted', locked: 'not_deleted' },
  editProfile: { deleted: 'already_deleted' },
  sendPasswordReset: { deleted: 'already_deleted' },
  hardDelete: { active: 'not_deleted', locked: 'not_deleted' },
};

/** Throws the action's 409 unless it accepts the account's status. */
export function assertAccepts(action: AccountAction, user: Pick<UserRecord, 'status'>): void {
  if (accepts(action, user.status)) return;
  throw conflict(REFUSALS[action]?.[user.status] ?? BEING_ERASED);
}

/**
 * The accepted statuses as a DynamoDB condition on the account item, with its own placeholder
 * names: AND it into the write's condition and merge the names and values.
 */
export function statusCondition(action: AccountAction): {
  expression: string;
  names: Record<string, string>;
  values: Record<string, UserStatus>;
} {
  const statuses = ACCEPTED_STATUSES[action] as readonly UserStatus[];
  const values = Object.fromEntries(statuses.map((status, index) => [`:acceptedStatus${index}`, status]));
  return {
    expression: `#accountStatus IN (${Object.keys(values).join(', ')})`,
    names: { '#accountStatus': 'status' },
    values,
  };
}

/**
 * A transaction item that holds only while the account's status is one `action` accepts: for a
 * write on other items (an enrollment, a certificate, a passkey) that must not land on an
 * account being erased. Its failure is a TransactionCanceledException whose reason at this
 * item's index is `ConditionalCheckFailed`.
 */
export function accountStateCheck(action: AccountAction, userId: string) {
  const condition = statusCondition(action);
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: keys.user(userId),
      ConditionExpression: condition.expression,
      ExpressionAttributeNames: condition.names,
      ExpressionAttributeValues: condition.values,
    },
  };
}
