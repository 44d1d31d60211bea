import { AUDIT_ACTION } from '../../functions/lib/audit';
import { KEY, keys } from '../../functions/lib/table';

/**
 * Which items of a point-in-time restore may be copied back into the live table
 * (docs/runbook.md#restore-the-table-to-a-point-in-time). Kept out of the copy:
 * - credentials and throttles that were valid at the restore point and must not come back:
 *   sessions (a revoked one would sign in again), email and sign-in codes, reset tokens (a used
 *   one would work again), sign-in and WebAuthn challenges, rate-limit windows and back-offs;
 * - items whose TTL has passed (DynamoDB deletes them a while after expiry);
 * - every item of an account hard-deleted or erased by the live table's audit log (the copy
 *   would bring its personal data back);
 * - passkeys removed after the restore point (the live audit log names them).
 * The prefixes come from the key builders of functions/lib/table.ts, so a key layout change
 * changes the filter too.
 */
type Item = Record<string, unknown> & { pk: string; sk: string };

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

/** Attributes through which an item names the account it belongs to. */
const ACCOUNT_ATTRIBUTES = ['id', 'user_id', 'entity_id', 'actor_user_id'];

/** Hard deletes (an admin's or the erasure after retention) whose accounts stay gone. */
export const HARD_DELETE_ACTIONS = [AUDIT_ACTION.adminHardDelete, AUDIT_ACTION.systemHardDelete];
export const PASSKEY_REMOVED_ACTION = AUDIT_ACTION.passkeyRemoved;

export interface RemovedPasskey {
  userId: string;
  /** The start of the credential hash the audit entry keeps. */
  hashPrefix: string;
}

export interface RestoreFilter {
  /** Accounts hard-deleted or erased, by id. */
  erased: ReadonlySet<string>;
  removedPasskeys: readonly RemovedPasskey[];
  /** Seconds since the epoch: items whose TTL is before this are expired. */
  nowSeconds: number;
}

export type SkipReason = 'credential' | 'expired' | 'erased_account' | 'removed_passkey';

const segmentsOf = (value: unknown) => (typeof value === 'string' ? value.split('#') : []);

/** Whether an item names an erased account in its key or in an account attribute. */
function ofErasedAccount(item: Item, erased: ReadonlySet<string>): boolean {
  if (!erased.size) return false;
  const named = [item.pk, item.sk, ...ACCOUNT_ATTRIBUTES.map((name) => item[name])].flatMap(segmentsOf);
  return named.some((segment) => erased.has(segment));
}

function isRemovedPasskey(item: Item, removed: readonly RemovedPasskey[]): boolean {
  return removed.some(
    ({ userId, hashPrefix }) =>
      (item.pk === keys.passkey(userId, hashPrefix).pk && item.sk.startsWith(keys.passkey(userId, hashPrefix).sk)) ||
      (item.pk.startsWith(keys.passkeyLookup(hashPrefix).pk) && item.user_id === userId),
  );
}

/** Why an item of the restored table stays out of the live table, or undefined to copy it. */
export function skipReason(item: Item, filter: RestoreFilter): SkipReason | undefined {
  if (SKIPPED_PARTITIONS.some((prefix) => item.pk.startsWith(prefix)) || SKIPPED_SORT_KEYS.some((prefix) => item.sk.startsWith(prefix)))
    return 'credential';
  const expiresAt = item[KEY.ttl];
  if (typeof expiresAt === 'number' && expiresAt < filter.nowSeconds) return 'expired';
  if (ofErasedAccount(item, filter.erased)) return 'erased_account';
  if (isRemovedPasskey(item, filter.removedPasskeys)) return 'removed_passkey';
  return undefined;
}
