import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { adminAudit } from '../../functions/lib/admin-caller';
import { auditItem, type AuditInput } from '../../functions/lib/audit';
import { db, tableName } from '../../functions/lib/db';
import { GSIS } from '../../functions/lib/table';
import { MEASURED } from '../bench/cost-model';
import { ITEM_OVERHEAD_BYTES, itemSize, writeUnits } from './item-size';

/**
 * What one audit entry costs to write and to keep (docs/data-model.md "Audit entry cost"): the
 * table item plus one whole copy per index it is in (every audit index projects ALL), as
 * DynamoDB Local reports the consumed capacity (ReturnConsumedCapacity INDEXES: the table and each
 * index), checked against the item's size by DynamoDB's rules (./item-size.ts), which also gives
 * the bytes stored. Entries as the product writes them: an admin action with small old and new
 * values, and a sign-in with a real browser's user agent.
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
    it(`${name} is a table item of at most 1 KB and at most 6 write units with its index copies`, async () => {
      const item = auditItem(input);
      const written = await db().send(new PutCommand({ TableName: tableName(), Item: item, ReturnConsumedCapacity: 'INDEXES' }));
      const consumed = written.ConsumedCapacity!;
      // base table, entity, actor id, action, actor domain: the indexes the audit screens read, one unit each
      expect(consumed.Table?.CapacityUnits).toBe(1);
      expect(consumed.GlobalSecondaryIndexes).toEqual(
        Object.fromEntries(['gsi1', 'gsi2', 'auditByAction', 'auditByActorDomain'].map((name) => [name, { CapacityUnits: 1 }])),
      );
      const units = consumed.CapacityUnits!;
      expect(units).toBeLessThanOrEqual(6);
      expect(units).toBeLessThanOrEqual(MEASURED.auditEntry.writeUnits);
      // the item's size by DynamoDB's rules gives the same units, and what the entry stores
      const bytes = itemSize(item);
      const copies = indexesOf(item);
      expect(bytes).toBeLessThanOrEqual(1024);
      expect(writeUnits(bytes) * (1 + copies.length)).toBe(units);
      const storedBytes = (bytes + ITEM_OVERHEAD_BYTES) * (1 + copies.length);
      expect(storedBytes / 1024).toBeLessThanOrEqual(MEASURED.auditEntry.storedKb);
      console.info(`audit entry cost, ${name}: ${bytes} B item, ${units} WRU with ${copies.length} index copies, ${storedBytes} B stored`);
    });
  }
});
