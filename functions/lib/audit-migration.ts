import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { auditEntryOf, auditRefItemsOf, isLegacyAuditEntry, LEGACY_AUDIT_INDEX_ATTRIBUTES } from './audit';
import { config } from './config';
import { db, tableName } from './db';
import { forEachBounded } from './bounded';
import { queryPages } from './query-pages';
import { auditDayPartition, keys } from './table';
import { dayOf } from './activity';
import { failedConditions } from './retry';
import { currentDate } from './clock';

export interface AuditMigration {
  /** days whose partition was read */
  days: number;
  /** legacy entries given their references */
  converted: number;
}

const PAGE = 100;
const DAY_MS = 24 * 3600 * 1000;
/** Expression names of the legacy index attributes (#l0, #l1, …). */
const LEGACY_NAMES = Object.fromEntries(LEGACY_AUDIT_INDEX_ATTRIBUTES.map((name, index) => [`#l${index}`, name]));

/**
 * `npm run migrate` step `audit-references`: gives every entry written before the references
 * (functions/lib/audit.ts) its references and takes its legacy index key attributes away. Those
 * entries are all in the shard-0 day partitions (AUDIT#<day>), read day by day over the audit
 * retention by Query, a page at a time, and each converted in one transaction (`conversion`). A
 * converted entry carries no legacy attribute and is not read again, so a rerun (or a run that
 * stopped) converts only what is left.
 */
export async function migrateAuditEntries(now = currentDate(), onDay: (sofar: AuditMigration) => void = () => {}) {
  const totals: AuditMigration = { days: 0, converted: 0 };
  // a day ahead too: an entry written near midnight by a clock a little ahead
  for (let back = -1; back <= config().auditRetentionDays; back++) {
    const partition = auditDayPartition(dayOf(new Date(now.getTime() - back * DAY_MS)), 0);
    const pages = queryPages({
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: Object.keys(LEGACY_NAMES)
        .map((name) => `attribute_exists(${name})`)
        .join(' OR '),
      ExpressionAttributeNames: LEGACY_NAMES,
      ExpressionAttributeValues: { ':pk': partition },
      Limit: PAGE,
    });
    for await (const page of pages) {
      const legacy = (page.Items ?? []).filter(isLegacyAuditEntry);
      await forEachBounded(legacy, 8, async (item) => {
        if (await convert(item)) totals.converted += 1;
      });
    }
    totals.days += 1;
    onDay({ ...totals });
  }
  return totals;
}

/**
 * Converts one legacy entry; when it changed since it was read (a hard delete scrubbed it), as it
 * is now. False when it is gone (its TTL) or no longer legacy.
 */
async function convert(read: Record<string, unknown>): Promise<boolean> {
  for (let item: Record<string, unknown> | undefined = read; item && isLegacyAuditEntry(item);) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: conversion(item) }));
      return true;
    } catch (error) {
      if (!failedConditions(error).length) throw error;
      item = (await db().send(new GetCommand({ TableName: tableName(), Key: { pk: item.pk, sk: item.sk }, ConsistentRead: true }))).Item;
    }
  }
  return false;
}

/**
 * The transaction that converts one legacy entry: its references put, naming the entry's
 * partition where the id's shard is another (the entry stays where it is), and its legacy index
 * attributes removed, on condition that its actor email is still the one the references carry
 * (a hard delete that scrubbed it meanwhile: the next run converts it as it is now). Idempotent:
 * every put is the same item again.
 */
function conversion(item: Record<string, unknown>) {
  const entry = auditEntryOf(item);
  const key = { pk: String(item.pk), sk: String(item.sk) };
  const named = keys.audit(entry.created_at, entry.id).pk === key.pk ? {} : { entry_pk: key.pk };
  const refs = auditRefItemsOf(item).map((ref) => ({ Put: { TableName: tableName(), Item: { ...ref, ...named } } }));
  return [
    ...refs,
    {
      Update: {
        TableName: tableName(),
        Key: key,
        UpdateExpression: `REMOVE ${Object.keys(LEGACY_NAMES).join(', ')}`,
        ConditionExpression:
          entry.actor_email === null ? 'attribute_exists(pk) AND attribute_not_exists(#email)' : 'attribute_exists(pk) AND #email = :email',
        ExpressionAttributeNames: { ...LEGACY_NAMES, '#email': 'actor_email' },
        ...(entry.actor_email === null ? {} : { ExpressionAttributeValues: { ':email': entry.actor_email } }),
      },
    },
  ];
}
