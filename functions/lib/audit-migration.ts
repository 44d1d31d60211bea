import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { auditEntryOf, auditRefItems, isLegacyAuditEntry, LEGACY_AUDIT_INDEX_ATTRIBUTES } from './audit';
import { config } from './config';
import { db, tableName } from './db';
import { forEachBounded } from './bounded';
import { queryPages } from './query-pages';
import { auditDayPartition, keys } from './table';
import { dayOf } from './activity';
import { failedConditions } from './retry';

export interface AuditMigration {
  /** days whose partition was read */
  days: number;
  /** legacy entries given their references (and moved to their shard's partition where it differs) */
  converted: number;
}

const PAGE = 100;
const DAY_MS = 24 * 3600 * 1000;

/**
 * `npm run migrate` step `audit-references`: gives every entry written before the references
 * (functions/lib/audit.ts) its references and takes its legacy index key attributes away. Those
 * entries are all in the shard-0 day partitions (AUDIT#<day>), read day by day over the audit
 * retention by Query, a page at a time. Each entry is converted in one transaction: its references
 * put, and the entry itself either updated in place (the legacy attributes removed) or, when its
 * id hashes to another shard, put there without them and deleted here (a reference finds its entry
 * by the id's shard, functions/lib/table.ts keys.audit). A converted entry carries no legacy
 * attribute and is not read again, so a rerun (or a run that stopped) converts only what is left.
 */
export async function migrateAuditEntries(now = new Date(), onDay: (sofar: AuditMigration) => void = () => {}) {
  const totals: AuditMigration = { days: 0, converted: 0 };
  // a day ahead too: an entry written near midnight by a clock a little ahead
  for (let back = -1; back <= config().auditRetentionDays; back++) {
    const partition = auditDayPartition(dayOf(new Date(now.getTime() - back * DAY_MS)), 0);
    const pages = queryPages({
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: LEGACY_AUDIT_INDEX_ATTRIBUTES.map((_, index) => `attribute_exists(#l${index})`).join(' OR '),
      ExpressionAttributeNames: Object.fromEntries(LEGACY_AUDIT_INDEX_ATTRIBUTES.map((name, index) => [`#l${index}`, name])),
      ExpressionAttributeValues: { ':pk': partition },
      Limit: PAGE,
    });
    for await (const page of pages) {
      const legacy = (page.Items ?? []).filter(isLegacyAuditEntry);
      await forEachBounded(legacy, 8, async (item) => {
        try {
          await db().send(new TransactWriteCommand({ TransactItems: conversion(item) }));
          totals.converted += 1;
        } catch (error) {
          // gone meanwhile (its TTL, or another run moved it)
          if (!failedConditions(error).length) throw error;
        }
      });
    }
    totals.days += 1;
    onDay({ ...totals });
  }
  return totals;
}

/** The transaction that converts one legacy entry (idempotent: every put is the same item again). */
function conversion(item: Record<string, unknown>) {
  const entry = auditEntryOf(item);
  const expiresAt = typeof item.expires_at === 'number' ? item.expires_at : undefined;
  const refs = auditRefItems(entry, expiresAt).map((Item) => ({ Put: { TableName: tableName(), Item } }));
  const key = { pk: String(item.pk), sk: String(item.sk) };
  const target = keys.audit(entry.created_at, entry.id);
  if (target.pk === key.pk && target.sk === key.sk) {
    const names = Object.fromEntries(LEGACY_AUDIT_INDEX_ATTRIBUTES.map((name, index) => [`#l${index}`, name]));
    return [
      ...refs,
      {
        Update: {
          TableName: tableName(),
          Key: key,
          UpdateExpression: `REMOVE ${Object.keys(names).join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: names,
        },
      },
    ];
  }
  const moved = Object.fromEntries(Object.entries(item).filter(([name]) => !LEGACY_AUDIT_INDEX_ATTRIBUTES.includes(name)));
  return [
    ...refs,
    { Put: { TableName: tableName(), Item: { ...moved, ...target } } },
    { Delete: { TableName: tableName(), Key: key, ConditionExpression: 'attribute_exists(pk)' } },
  ];
}
