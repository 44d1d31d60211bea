import { AUDIT_ACTION } from '../../functions/lib/audit';
import { AUDIT_REF_KIND, auditRefPrefix, keyAfter, KEY, keys, PK, PROFILE_SK, SK } from '../../functions/lib/table';

/**
 * Which items of a point-in-time restore may be copied back into the live table
 * (docs/runbook.md#restore-the-table-to-a-point-in-time). What was removed after the restore
 * point is read from the live table, never from what the stream derived: its audit entries
 * (written in the transaction of the change they record) and the state of each account
 * (infra/ops/restore-evidence.ts). Kept out of the copy:
 * - credentials and throttles that were valid at the restore point and must not come back:
 *   sessions (a revoked one would sign in again), email and sign-in codes, reset tokens (a used
 *   one would work again), sign-in and WebAuthn challenges, rate-limit windows and back-offs;
 * - items whose TTL has passed (DynamoDB deletes them a while after expiry);
 * - every item of an account whose hard delete started: after the restore point (an entry in
 *   the live audit log, its purge job or `purging` profile in the live table) or before it (its
 *   purge job in the restored table: a purge under way at the restore point);
 * - passkeys removed after the restore point, with their lookup items: by their owner, an
 *   administrator or the notice's link (each audit entry names the passkey), and every passkey
 *   of an account whose password was reset (the reset removes them all);
 * - an email-address guard or search item the account no longer holds (an email or name
 *   changed after the restore point): the live profile says what it holds now.
 * The prefixes come from the key builders of functions/lib/table.ts, so a key layout change
 * changes the filter too.
 */
export type Item = Record<string, unknown> & { pk: string; sk: string };

/** The constant start of a key a builder makes (everything before its first argument). */
const MARK = '\u0000';
const prefixOf = (key: string) => key.slice(0, key.indexOf(MARK));

export const SKIPPED_PARTITIONS = [
  prefixOf(keys.challenge(MARK).pk),
  prefixOf(keys.resetToken(MARK).pk),
  prefixOf(keys.rateWindow(MARK, MARK, 0).pk),
  prefixOf(keys.webauthnChallenge(MARK).pk),
];
export const SKIPPED_SORT_KEYS = [prefixOf(keys.session(MARK, MARK).sk), prefixOf(keys.code(MARK, MARK).sk)];

/** Hard deletes (an admin's or the erasure after retention) whose accounts stay gone. */
export const HARD_DELETE_ACTIONS: readonly string[] = [AUDIT_ACTION.adminHardDelete, AUDIT_ACTION.systemHardDelete];
/** Removals of one passkey (by its owner or its notice's link, by an administrator): the entry keeps the start of its hash. */
export const PASSKEY_REMOVED_ACTIONS: readonly string[] = [AUDIT_ACTION.passkeyRemoved, AUDIT_ACTION.adminPasskeyRemoved];
/**
 * Changes to an account's credentials or access. With `--overwrite` the live profile of an
 * account with one after the restore point stands: the restored one would bring back an old
 * password, address, role or session version (a revoked session's version signs in again).
 */
export const ACCESS_CHANGE_ACTIONS: readonly string[] = [
  AUDIT_ACTION.passwordReset,
  AUDIT_ACTION.adminUserUpdate,
  AUDIT_ACTION.passkeyRemoved,
  'account.self_delete',
  'account.self_restore',
  'admin.user.invalidate_sessions',
  'admin.user.lock',
  'admin.user.reset_password',
  'admin.user.restore',
  'admin.user.soft_delete',
  'admin.user.unlock',
  'auth.email_verified',
  'auth.password_changed',
  'auth.sessions_revoked_others',
  'user.password_sign_in_allowed',
  'user.role_changed',
];

export interface RemovedPasskey {
  userId: string;
  /** The start of the credential hash the audit entry keeps. */
  hashPrefix: string;
}

/** What the live audit log records from the restore point on. */
export interface AfterRestorePoint {
  /** Accounts whose hard delete started. */
  erased: ReadonlySet<string>;
  removedPasskeys: readonly RemovedPasskey[];
  /** Accounts whose password was reset: every passkey they had is gone. */
  passkeysReset: ReadonlySet<string>;
  /** The address an account was last given (lower-cased), by account. */
  emails: ReadonlyMap<string, string>;
  /** Accounts with a change of credentials or access (ACCESS_CHANGE_ACTIONS). */
  accessChanged: ReadonlySet<string>;
}

/** One account as the live and the restored table hold it now. */
export interface AccountState {
  /** A hard delete started: a purge job in either table or a `purging` live profile. */
  erased: boolean;
  /** The live profile's address and search item sort keys; undefined without a live profile. */
  live?: { emailLower: string; searchKeys: ReadonlySet<string> };
}

export interface RestoreFilter extends AfterRestorePoint {
  /** The state of the accounts the items name (`accountsOf`); an account missing here has none. */
  accounts: ReadonlyMap<string, AccountState>;
  /** Seconds since the epoch: items whose TTL is before this are expired. */
  nowSeconds: number;
}

export type SkipReason = 'credential' | 'expired' | 'erased_account' | 'removed_passkey' | 'stale_lookup';

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
const USER_ENTITY = auditRefPrefix.entity('user');

/**
 * The accounts an item belongs to or names: its key (the account's partition, its purge job, a
 * day's activity marker, an audit reference of the account), `user_id` (email guard, passkey
 * lookup, search item, certificate, deferred notice) and the people of an audit entry or reference.
 */
export function accountsOf(item: Item): string[] {
  const ids = new Set<string>();
  const add = (value: unknown) => {
    if (text(value)) ids.add(value as string);
  };
  for (const prefix of [PK.user, PK.purge, AUDIT_REF_KIND.actor, USER_ENTITY])
    if (item.pk.startsWith(prefix)) add(keyAfter(prefix, item.pk));
  if (item.pk.startsWith(PK.activity) && item.sk.startsWith(PK.user)) add(keyAfter(PK.user, item.sk));
  add(item.user_id);
  add(item.actor_user_id);
  if (item.entity_type === 'user') add(item.entity_id);
  return [...ids];
}

const passkeyOf = (item: Item): { userId: string; hash: string } | undefined => {
  if (item.pk.startsWith(PK.user) && item.sk.startsWith(SK.passkey))
    return { userId: keyAfter(PK.user, item.pk), hash: keyAfter(SK.passkey, item.sk) };
  if (item.pk.startsWith(PK.passkeyId) && text(item.user_id))
    return { userId: String(item.user_id), hash: keyAfter(PK.passkeyId, item.pk) };
  return undefined;
};

function isRemovedPasskey(item: Item, filter: RestoreFilter): boolean {
  const passkey = passkeyOf(item);
  if (!passkey) return false;
  return (
    filter.passkeysReset.has(passkey.userId) ||
    filter.removedPasskeys.some(({ userId, hashPrefix }) => userId === passkey.userId && passkey.hash.startsWith(hashPrefix))
  );
}

/** The address an account holds now: its live profile's, else the last one the audit log gave it, else unknown. */
const currentEmail = (userId: string, filter: RestoreFilter) => filter.accounts.get(userId)?.live?.emailLower ?? filter.emails.get(userId);

/** An email guard or search item the account no longer holds. */
function isStaleLookup(item: Item, filter: RestoreFilter): boolean {
  const userId = text(item.user_id);
  if (!userId) return false;
  if (item.pk.startsWith(PK.email)) {
    const email = currentEmail(userId, filter);
    return email !== undefined && email !== keyAfter(PK.email, item.pk);
  }
  if (item.pk.startsWith(PK.userSearch)) {
    const live = filter.accounts.get(userId)?.live;
    if (live) return !live.searchKeys.has(item.sk);
    const email = filter.emails.get(userId);
    return item.field === 'email' && email !== undefined && !item.sk.startsWith(`${email}#`);
  }
  return false;
}

/** Why an item of the restored table stays out of the live table, or undefined to copy it. */
export function skipReason(item: Item, filter: RestoreFilter): SkipReason | undefined {
  if (SKIPPED_PARTITIONS.some((prefix) => item.pk.startsWith(prefix)) || SKIPPED_SORT_KEYS.some((prefix) => item.sk.startsWith(prefix)))
    return 'credential';
  const expiresAt = item[KEY.ttl];
  if (typeof expiresAt === 'number' && expiresAt < filter.nowSeconds) return 'expired';
  if (accountsOf(item).some((id) => filter.erased.has(id) || filter.accounts.get(id)?.erased)) return 'erased_account';
  if (isRemovedPasskey(item, filter)) return 'removed_passkey';
  if (isStaleLookup(item, filter)) return 'stale_lookup';
  return undefined;
}

/**
 * Whether `--overwrite` may replace the live copy of an item. Never a lookup (an email guard or
 * passkey lookup the live table holds may be another account's by now), nor the profile of an
 * account whose credentials or access changed after the restore point: there the live item stands.
 */
export function mayOverwrite(item: Item, filter: Pick<AfterRestorePoint, 'accessChanged'>): boolean {
  if (item.pk.startsWith(PK.email) || item.pk.startsWith(PK.passkeyId)) return false;
  if (item.pk.startsWith(PK.user) && item.sk === PROFILE_SK) return !filter.accessChanged.has(keyAfter(PK.user, item.pk));
  return true;
}
