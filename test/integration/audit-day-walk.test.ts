import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dayWalk } from '../../functions/admin/audit-reads';
import { auditItem } from '../../functions/lib/audit';
import { batchWriteItems } from '../../functions/lib/batch-items';
import { capacityMeter } from '../../functions/lib/db';

/**
 * The unfiltered audit log walks the table's day partitions (functions/admin/audit-reads.ts):
 * a page that continues inside a day costs one Query or two, never the walk's whole budget.
 * The entries sit on a day of their own (no other test writes to it).
 */
describe('the audit log day walk', () => {
  it('pages a busy day and the days around it by cursor, one or two Queries a page', async () => {
    const day = '2001-02-03';
    const mark = randomUUID();
    const entries = [
      ...Array.from({ length: 70 }, (_, i) => new Date(Date.parse(`${day}T12:00:00Z`) - i * 60_000)),
      new Date('2001-02-04T08:00:00Z'),
      new Date('2001-02-01T08:00:00Z'),
    ].map((at) => auditItem({ action: 'admin.user.lock', entityType: 'user', entityId: mark }, at));
    await batchWriteItems(entries.map((Item) => ({ PutRequest: { Item } })));

    const read = dayWalk('2001-02-01', '2001-02-04');
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
    expect(shown).toEqual(entries.map((entry) => entry.sk).sort((a, b) => (a < b ? 1 : -1)));
    // 72 entries: 3 pages; the last one crosses to the day before and the empty day between
    expect(queries).toHaveLength(3);
    expect(Math.max(...queries.slice(0, 2)), `Queries per page: ${queries.join(', ')}`).toBeLessThanOrEqual(2);
    expect(queries[2]).toBeLessThanOrEqual(4);
  });
});
