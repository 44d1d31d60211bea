import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { adminAudit } from '../../functions/lib/admin-caller';
import { auditEntryOf, auditItems, auditPuts, auditRefPartitions, type AuditInput } from '../../functions/lib/audit';
import { batchGetItems } from '../../functions/lib/batch-items';
import { capacityMeter, db, tableName } from '../../functions/lib/db';
import { GSIS, PK, STREAMED_REFERENCES } from '../../functions/lib/table';
import { drainActivityStream } from '../../infra/local/activity-stream';
import { MEASURED } from '../bench/cost-model';
import { ITEM_OVERHEAD_BYTES, itemSize, writeUnits } from './item-size';

/**
 * What one audit entry costs to write and to keep (docs/data-model.md "Audit entry cost"): the
 * entry and its references (one small item per access pattern the audit screens read), in no
 * index, as DynamoDB Local reports the consumed capacity (ReturnConsumedCapacity INDEXES: the
 * table and each index), checked against the items' sizes by DynamoDB's rules (./item-size.ts),
 * which also give the bytes stored. Entries as the product writes them: an admin action with
 * small old and new values, and a sign-in with a real browser's user agent.
 */
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const admin = { id: randomUUID(), email: 'morgan.admin@careers.example.org' };
const learner = { id: randomUUID(), email: 'ada.lovelace@example.com' };

const typical: Array<[string, AuditInput]> = [
  [
    'an admin action',
    adminAudit(
      { admin, ip: '203.0.113.45', userAgent: BROWSER },
      'admin.user.update',
      { type: 'user', id: learner.id },
      { old: { first_name: 'Ada', last_name: 'Byron' }, new: { first_name: 'Ada', last_name: 'Lovelace' } },
    ),
  ],
  [
    'a sign-in',
    {
      action: 'auth.login',
      actor: learner,
      entityType: 'user',
      entityId: learner.id,
      newValues: { method: 'password', new_browser: true },
      ip: '198.51.100.23',
      userAgent: BROWSER,
    },
  ],
];

/** The indexes an item is in: those whose partition and sort key attributes it carries. */
const indexesOf = (item: Record<string, unknown>) => GSIS.filter((gsi) => gsi.partitionKey in item && gsi.sortKey in item);

describe('audit entry cost', () => {
  for (const [name, input] of typical) {
    it(`${name} is at most 6 write units and 3 KB stored with its references, written alone`, async () => {
      const items = auditItems(input);
      // the entry and one reference each by entity, actor, action and actor domain; none is in an index
      expect(items.map((item) => String(item.pk).startsWith(PK.auditRef))).toEqual([false, true, true, true, true]);
      expect(items.flatMap(indexesOf)).toEqual([]);
      const written = await db().send(
        new BatchWriteCommand({
          RequestItems: { [tableName()]: items.map((Item) => ({ PutRequest: { Item } })) },
          ReturnConsumedCapacity: 'INDEXES',
        }),
      );
      const [consumed] = written.ConsumedCapacity!;
      expect(consumed.GlobalSecondaryIndexes ?? {}).toEqual({});
      const units = consumed.CapacityUnits!;
      expect(units).toBeLessThanOrEqual(6);
      expect(units).toBeLessThanOrEqual(MEASURED.auditEntry.writeUnits);
      // the items' sizes by DynamoDB's rules give the same units, and what the entry stores
      const sizes = items.map(itemSize);
      expect(sizes.reduce((sum, bytes) => sum + writeUnits(bytes), 0)).toBe(units);
      const storedBytes = sizes.reduce((sum, bytes) => sum + bytes + ITEM_OVERHEAD_BYTES, 0);
      expect(storedBytes / 1024).toBeLessThanOrEqual(3);
      expect(storedBytes / 1024).toBeLessThanOrEqual(MEASURED.auditEntry.storedKb);
      console.info(
        `audit entry cost, ${name}: entry ${sizes[0]} B + references ${sizes.slice(1).join(', ')} B, ${units} WRU, ${storedBytes} B stored`,
      );
    });
  }

  it('is at most 6 write units and 3 KB written with the change it records: the entry in the transaction, its references right after the commit', async () => {
    const puts = auditPuts(typical[0][1]);
    // the entry alone in the transaction, marked for the stream's check
    expect(puts).toHaveLength(1);
    const [{ Put: put }] = puts;
    expect(put.Item[STREAMED_REFERENCES.attribute]).toBe(STREAMED_REFERENCES.value);
    capacityMeter.reset();
    const written = await db().send(new TransactWriteCommand({ TransactItems: puts, ReturnConsumedCapacity: 'INDEXES' }));
    expect(written.ConsumedCapacity?.[0].GlobalSecondaryIndexes ?? {}).toEqual({});
    // DynamoDB Local reports 2 units for the whole transaction; the cloud charges two units
    // per started KB of every item (developer guide, "Capacity management for transactions")
    const entryUnits = 2 * writeUnits(itemSize(put.Item));
    expect(entryUnits).toBe(2);
    // the references were put by the same send, once it committed: one unit each
    const sent = capacityMeter.snapshot();
    const refKeys = auditRefPartitions(auditEntryOf(put.Item)).map((pk) => ({ pk, sk: String(put.Item.sk) }));
    const refs = await batchGetItems(refKeys, { consistentRead: true });
    expect(refs).toHaveLength(4);
    const refUnits = refs.reduce((sum, ref) => sum + writeUnits(itemSize(ref)), 0);
    expect(sent).toEqual({ calls: 5, read: 0, write: 2 + refUnits });
    expect(entryUnits + refUnits).toBeLessThanOrEqual(6);
    expect(entryUnits + refUnits).toBeLessThanOrEqual(MEASURED.auditEntryInTransaction.writeUnits);
    const storedBytes = [put.Item, ...refs].reduce((sum, item) => sum + itemSize(item) + ITEM_OVERHEAD_BYTES, 0);
    expect(storedBytes / 1024).toBeLessThanOrEqual(3);

    // the stream's check reads the entry (consistent, 1 unit) and the references' keys (half a
    // unit each) and writes nothing: 3 read units by the rules (DynamoDB Local reports a BatchGetItem as one)
    capacityMeter.reset();
    await drainActivityStream();
    expect(capacityMeter.snapshot().write).toBe(0);
    const streamReadUnits = 1 + refs.length * 0.5;
    expect(streamReadUnits).toBeLessThanOrEqual(MEASURED.auditEntryInTransaction.readUnits);
    console.info(
      `audit entry cost, in a transaction: entry ${entryUnits} WRU (transactional) + references ${refUnits} WRU after the commit, ${storedBytes} B stored; the stream's check ${streamReadUnits} RRU`,
    );
  });
});
