import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS_BY_ENTITY_TYPE } from '../../functions/lib/audit-actions';
import { auditRefPartition, keys } from '../../functions/lib/table';
import { searchItems } from '../../functions/lib/users';
import type { UserRecord } from '../../functions/lib/user-record';
import {
  ACCESS_CHANGE_ACTIONS,
  accountsOf,
  HARD_DELETE_ACTIONS,
  mayOverwrite,
  PASSKEY_REMOVED_ACTIONS,
  skipReason,
  type AccountState,
  type Item,
  type RestoreFilter,
} from '../../infra/ops/restore-filter';
import { daysBetween } from '../../infra/ops/restore-evidence';

/**
 * The decisions of the restore copy-back (infra/ops/restore-filter.ts), one source of "removed
 * after the restore point" at a time: the live audit log, the live account, the restored one.
 */
const user = { id: 'u-1', email: 'Old@Example.com', first_name: 'Ada', last_name: 'Byron' } as UserRecord;
const HASH = 'abcdefgh0123456789abcdefghijklmnopqrstuvwxy';
const filter = (extra: Partial<RestoreFilter> = {}): RestoreFilter => ({
  erased: new Set(),
  removedPasskeys: [],
  passkeysReset: new Set(),
  emails: new Map(),
  accessChanged: new Set(),
  accounts: new Map(),
  nowSeconds: 1_000,
  ...extra,
});
const withAccount = (state: AccountState, extra: Partial<RestoreFilter> = {}) =>
  filter({ accounts: new Map([[user.id, state]]), ...extra });
const liveAs = (profile: Pick<UserRecord, 'email' | 'first_name' | 'last_name'>): AccountState => ({
  erased: false,
  live: {
    emailLower: profile.email.toLowerCase(),
    searchKeys: new Set(searchItems({ ...user, ...profile }).map((item) => item.sk)),
  },
});

const profile: Item = { ...keys.user(user.id), id: user.id, email: user.email };
const guard: Item = { ...keys.email(user.email), user_id: user.id };
const [emailSearch, nameSearch] = searchItems(user) as Item[];
const passkey: Item = { ...keys.passkey(user.id, HASH), user_id: user.id };
const passkeyLookup: Item = { ...keys.passkeyLookup(HASH), user_id: user.id };
const activity: Item = { ...keys.activity('2026-11-23', user.id) };
const auditRef: Item = { pk: auditRefPartition.actor(user.id), sk: '2026-11-23T09:00:00.000Z#a' };
const auditEntry: Item = { ...keys.audit('2026-11-23T09:00:00.000Z', 'a'), entity_type: 'user', entity_id: user.id, action: 'auth.login' };
const ofAccount = [profile, guard, emailSearch, nameSearch, passkey, passkeyLookup, activity, auditRef, auditEntry];

describe('the restore filter', () => {
  it('names the account of every item that belongs to one', () => {
    for (const item of ofAccount) expect(accountsOf(item)).toEqual([user.id]);
    expect(accountsOf({ ...keys.purgeJob(user.id) })).toEqual([user.id]);
    expect(accountsOf({ ...keys.programMeta('p'), id: 'not-an-account' })).toEqual([]);
    expect(accountsOf({ ...auditEntry, entity_type: 'program', entity_id: 'p', actor_user_id: 'admin-1' })).toEqual(['admin-1']);
  });

  it('copies every item of an account nothing happened to', () => {
    for (const item of ofAccount) expect(skipReason(item, withAccount(liveAs(user)))).toBeUndefined();
    for (const item of ofAccount) expect(skipReason(item, filter())).toBeUndefined();
  });

  it('leaves out every item of an account whose hard delete the live audit log records, or its state in either table shows', () => {
    for (const item of ofAccount) {
      expect(skipReason(item, filter({ erased: new Set([user.id]) }))).toBe('erased_account');
      // a purge job (live: after the point; restored: under way at it) or a `purging` live profile
      expect(skipReason(item, withAccount({ erased: true }))).toBe('erased_account');
    }
  });

  it('leaves out a passkey removed by its owner or an administrator, and every passkey of an account whose password was reset', () => {
    const removed = filter({ removedPasskeys: [{ userId: user.id, hashPrefix: HASH.slice(0, 8) }] });
    const reset = filter({ passkeysReset: new Set([user.id]) });
    for (const item of [passkey, passkeyLookup]) {
      expect(skipReason(item, removed)).toBe('removed_passkey');
      expect(skipReason(item, reset)).toBe('removed_passkey');
    }
    expect(skipReason(passkey, filter({ removedPasskeys: [{ userId: 'u-2', hashPrefix: HASH.slice(0, 8) }] }))).toBeUndefined();
    expect(skipReason(passkey, filter({ removedPasskeys: [{ userId: user.id, hashPrefix: 'zzzzzzzz' }] }))).toBeUndefined();
    expect(skipReason(profile, reset)).toBeUndefined();
  });

  it('leaves out an address guard and search items the account no longer holds', () => {
    const moved = withAccount(liveAs({ ...user, email: 'new@example.com' }));
    expect(skipReason(guard, moved)).toBe('stale_lookup');
    expect(skipReason(emailSearch, moved)).toBe('stale_lookup');
    expect(skipReason(nameSearch, moved)).toBeUndefined();
    expect(skipReason(nameSearch, withAccount(liveAs({ ...user, first_name: 'Grace' })))).toBe('stale_lookup');
    // the profile lost too: the last address the audit log gave it
    const audited = filter({ emails: new Map([[user.id, 'new@example.com']]) });
    expect(skipReason(guard, audited)).toBe('stale_lookup');
    expect(skipReason(emailSearch, audited)).toBe('stale_lookup');
    expect(skipReason(nameSearch, audited)).toBeUndefined();
    expect(skipReason(guard, filter({ emails: new Map([[user.id, 'old@example.com']]) }))).toBeUndefined();
  });

  it('never overwrites a lookup, nor the profile of an account whose credentials or access changed after the point', () => {
    expect(mayOverwrite(guard, filter())).toBe(false);
    expect(mayOverwrite(passkeyLookup, filter())).toBe(false);
    expect(mayOverwrite(profile, filter())).toBe(true);
    expect(mayOverwrite(profile, filter({ accessChanged: new Set([user.id]) }))).toBe(false);
    expect(mayOverwrite(nameSearch, filter({ accessChanged: new Set([user.id]) }))).toBe(true);
  });

  it('reads actions the product writes', () => {
    const written = new Set(AUDIT_ACTIONS_BY_ENTITY_TYPE.user);
    expect([...HARD_DELETE_ACTIONS, ...PASSKEY_REMOVED_ACTIONS, ...ACCESS_CHANGE_ACTIONS].filter((action) => !written.has(action))).toEqual(
      [],
    );
  });

  it('reads the audit log day by day from the restore point to now', () => {
    expect(daysBetween(new Date('2026-11-29T23:59:00Z'), new Date('2026-12-02T00:00:01Z'))).toEqual([
      '2026-11-29',
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
    ]);
    expect(daysBetween(new Date('2026-12-02T10:00:00Z'), new Date('2026-12-02T11:00:00Z'))).toEqual(['2026-12-02']);
  });
});
