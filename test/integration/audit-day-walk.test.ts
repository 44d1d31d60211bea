import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bucketWalk, dayBuckets } from '../../functions/admin/audit-reads';
import { auditItems } from '../../functions/lib/audit';
import { batchWriteItems } from '../../functions/lib/batch-items';
import { capacityMeter } from '../../functions/lib/db';
import { AUDIT_SHARDS, auditShardOf } from '../../functions/lib/table';

/**
 * The unfiltered audit log walks the table's day partitions, each day's AUDIT_SHARDS shards
 * merged (functions/admin/audit-reads.ts): a page comes out newest first whatever shard its
 * entries went to, and a page that continues inside a day costs one round of Queries or two,
 * never the walk's whole budget. The entries sit on days of their own (no other test writes there).
 */
describe('the audit log day walk', () => {
  it("merges a day's shards newest first and pages a busy day and the days around it by cursor", async () => {
    const day = '2001-02-03';
    const mark = randomUUID();
    const entries = [
      ...Array.from({ length: 70 }, (_, i) => new Date(Date.parse(`${day}T12:00:00Z`) - i * 60_000)),
      new Date('2001-02-04T08:00:00Z'),
      new Date('2001-02-01T08:00:00Z'),
    ].map((at) => auditItems({ action: 'admin.user.lock', entityType: 'user', entityId: mark }, at));
    await batchWriteItems(entries.flat().map((Item) => ({ PutRequest: { Item } })));
    const bodies = entries.map(([entry]) => entry as { id: string; sk: string });
    // the busy day's entries are in every shard of its partition
    expect(new Set(bodies.map((entry) => auditShardOf(entry.id))).size).toBe(AUDIT_SHARDS);

    const read = bucketWalk(dayBuckets('2001-02-01', '2001-02-04'));
    const shown: string[] = [];
    const queries: number[] = [];
    let after: string | undefined;
    for (;;) {
      const before = capacityMeter.calls;
      const page = await read(after, 25);
      queries.push(capacityMeter.calls - before);
      shown.push(...page.items.map((item) => String(item.sk)));
      if (!page.hasNext) break;
      after = page.next;
    }
    expect(shown).toEqual(bodies.map((entry) => entry.sk).sort((a, b) => (a < b ? 1 : -1)));
    expect(queries, `Queries per page: ${queries.join(', ')}`).toHaveLength(3);
    // a page inside the busy day: one round over its shards, and a second read of the shards the page took most from
    expect(queries[1], `Queries per page: ${queries.join(', ')}`).toBeLessThanOrEqual(2 * AUDIT_SHARDS);
    // the first page also reads the day after it, the last one the empty day between and the day before
    expect(Math.max(queries[0], queries[2]), `Queries per page: ${queries.join(', ')}`).toBeLessThanOrEqual(4 * AUDIT_SHARDS);
  });

  it('answers a short page with a cursor beyond its Query budget, and the cursor goes on from there', async () => {
    const at = new Date('1999-06-01T08:00:00Z');
    const [entry, ...refs] = auditItems({ action: 'admin.user.lock', entityType: 'user', entityId: randomUUID() }, at);
    await batchWriteItems([entry, ...refs].map((Item) => ({ PutRequest: { Item } })));
    // 44 empty days above the entry: more than one page's budget of Queries
    const read = bucketWalk(dayBuckets('1999-06-01', '1999-07-15'));
    const first = await read(undefined, 25);
    expect(first).toMatchObject({ items: [], hasNext: true, short: true });
    let page = first;
    // 31 days a page: the walk gets there on the second page (bounded here, so a cursor that did not move fails)
    for (let pages = 1; page.short && !page.items.length && pages < 3; pages++) page = await read(page.next, 25);
    expect(page.items.map((item) => item.sk)).toEqual([entry.sk]);
    expect(page.hasNext).toBe(false);
  });
});
