import { describe, expect, it } from 'vitest';
import { SEARCH_FIELDS, searchItemKeys, searchItems, searchItemWrites, searchValue, type SearchItemSource } from './users';

const account = (overrides: Partial<SearchItemSource> = {}): SearchItemSource => ({
  id: 'u-1',
  created_at: '2026-03-02T09:00:00.000Z',
  status: 'active',
  verified: true,
  email: 'anna.berg@example.com',
  first_name: 'Anna',
  last_name: 'Berg',
  ...overrides,
});

/** What the search's FilterExpression decides for one item and a search text (user-search.ts searchItemFilter). */
const passesShadow = (item: ReturnType<typeof searchItems>[number], text: string) => item.shadowed < text.length;

describe('admin search items', () => {
  it('carry the status and verification the search filters on', () => {
    const items = searchItems(account({ status: 'locked', verified: false }));
    expect(items.map((item) => item.field)).toEqual(['email', 'first_name', 'last_name']);
    for (const item of items) expect(item).toMatchObject({ status: 'locked', verified: false, user_id: 'u-1' });
  });

  it('keep exactly one item per account for any search text: the first field that matches', () => {
    // email, first and last name share prefixes of different lengths
    const user = account({ email: 'annabel@example.com', first_name: 'Anna', last_name: 'Annabelle' });
    const items = searchItems(user);
    const texts = ['a', 'an', 'ann', 'anna', 'annab', 'annabe', 'annabel', 'annabell', 'annabelle', 'annabel@', 'x'];
    for (const text of texts) {
      const matching = items.filter((item) => item.sk.startsWith(text));
      const kept = matching.filter((item) => passesShadow(item, text));
      const firstMatch = SEARCH_FIELDS.find((field) => searchValue(user, field).startsWith(text));
      // the filter keeps the item of the first matching field, and only that one
      expect(kept.map((item) => item.field)).toEqual(firstMatch ? [firstMatch] : []);
    }
  });

  it('carry the last active day once there is one, and have the keys the activity write updates', () => {
    expect(searchItems(account()).every((item) => !('last_active_day' in item))).toBe(true);
    const active = searchItems(account({ last_active_day: '2026-03-05' }));
    expect(active.every((item) => item.last_active_day === '2026-03-05')).toBe(true);
    expect(searchItemKeys(account())).toEqual(active.map(({ pk, sk }) => ({ pk, sk })));
    expect(searchItemKeys(account({ last_name: ' ' }))).toHaveLength(2); // no value, no item
  });

  it('are not shadowed by a field that shares no prefix, nor by an empty one', () => {
    const items = searchItems(account({ first_name: 'Zed', last_name: 'Quinn' }));
    expect(items.map((item) => item.shadowed)).toEqual([0, 0, 0]);
  });
});

describe('search item writes', () => {
  it('write nothing when nothing searched changed', () => {
    expect(searchItemWrites(account(), account())).toEqual([]);
  });

  it('rewrite every item on a status or verification change, deleting none', () => {
    const locked = searchItemWrites(account(), account({ status: 'locked' }));
    expect(locked.map((write) => Object.keys(write)[0])).toEqual(['Put', 'Put', 'Put']);
    expect(locked.every((write) => 'Put' in write && write.Put.Item.status === 'locked')).toBe(true);
    const unverified = searchItemWrites(account(), account({ verified: false }));
    expect(unverified.every((write) => 'Put' in write && write.Put.Item.verified === false)).toBe(true);
  });

  it('on a rename delete the old value, put the new one, and rewrite a later field whose shadow changed', () => {
    const before = account({ email: 'zed@example.com', first_name: 'Anna', last_name: 'Annabelle' });
    const writes = searchItemWrites(before, { ...before, first_name: 'Beth' });
    const deleted = writes.flatMap((write) => ('Delete' in write ? [write.Delete.Key.sk] : []));
    const put = writes.flatMap((write) => ('Put' in write ? [write.Put.Item] : []));
    expect(deleted).toEqual(['anna#u-1#first_name']);
    expect(put.map((item) => item.sk).sort()).toEqual(['annabelle#u-1#last_name', 'beth#u-1#first_name']);
    // the last name was shadowed by "anna" up to 4 characters, by nothing now
    expect(searchItems(before)[2].shadowed).toBe(4);
    expect(put.find((item) => item.field === 'last_name')?.shadowed).toBe(0);
  });
});
