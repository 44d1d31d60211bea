import { BatchGetCommand, type DynamoDBDocumentClient, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { AUDIT_ACTION } from '../../functions/lib/audit';
import { AUDIT_SHARDS, auditDayPartition, keys, PK } from '../../functions/lib/table';
import { searchItemKeys } from '../../functions/lib/users';
import type { UserRecord } from '../../functions/lib/user-record';
import {
  ACCESS_CHANGE_ACTIONS,
  HARD_DELETE_ACTIONS,
  PASSKEY_REMOVED_ACTIONS,
  type AccountState,
  type AfterRestorePoint,
  type Item,
  type RemovedPasskey,
} from './restore-filter';

/**
 * What the live table says happened after the restore point, for restore-filter.ts. Read from
 * what the change itself wrote, never from what the table's stream derived from it (an audit
 * entry's references, the activity totals): a stream that lost records must not let an erased
 * account or a removed passkey come back.
 */

const DAY_MS = 24 * 3600 * 1000;

/** The days (yyyy-mm-dd) from `from`'s to `to`'s, oldest first. */
export function daysBetween(from: Date, to: Date): string[] {
  const days: string[] = [];
  for (let at = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()); at <= to.getTime(); at += DAY_MS)
    days.push(new Date(at).toISOString().slice(0, 10));
  return days;
}

const WANTED_ACTIONS = [
  ...new Set([...HARD_DELETE_ACTIONS, ...PASSKEY_REMOVED_ACTIONS, ...ACCESS_CHANGE_ACTIONS, AUDIT_ACTION.passwordReset]),
];

/**
 * The live audit entries of the actions the filter reads, from the restore point on: every
 * shard of each day's partition, where an entry is written in the same transaction as the change
 * it records (functions/lib/audit.ts). A Query per day and shard, filtered by action: an
 * operator's one-off that reads every entry since the restore point once.
 */
async function auditEntriesSince(client: DynamoDBDocumentClient, table: string, restorePoint: Date, now: Date): Promise<Item[]> {
  const from = restorePoint.toISOString();
  const actionValues = Object.fromEntries(WANTED_ACTIONS.map((action, index) => [`:a${index}`, action]));
  const partitions = daysBetween(restorePoint, now).flatMap((day) =>
    Array.from({ length: AUDIT_SHARDS }, (_, shard) => auditDayPartition(day, shard)),
  );
  const entries: Item[] = [];
  for (const partition of partitions) {
    const pages = paginateQuery(
      { client },
      {
        TableName: table,
        ConsistentRead: true,
        KeyConditionExpression: 'pk = :pk AND sk >= :from',
        FilterExpression: `#action IN (${Object.keys(actionValues).join(', ')})`,
        ExpressionAttributeNames: { '#action': 'action' },
        ExpressionAttributeValues: { ':pk': partition, ':from': from, ...actionValues },
      },
    );
    for await (const page of pages) entries.push(...((page.Items ?? []) as Item[]));
  }
  return entries;
}

const valuesOf = (entry: Item, field: 'old_values' | 'new_values') =>
  (entry[field] && typeof entry[field] === 'object' ? entry[field] : {}) as Record<string, unknown>;

/** What the live audit log records from the restore point on (restore-filter.ts AfterRestorePoint). */
export async function afterRestorePoint(
  client: DynamoDBDocumentClient,
  liveTable: string,
  restorePoint: Date,
  now: Date,
): Promise<AfterRestorePoint> {
  const entries = (await auditEntriesSince(client, liveTable, restorePoint, now))
    .filter((entry) => entry.entity_type === 'user' && typeof entry.entity_id === 'string')
    .sort((a, b) => a.sk.localeCompare(b.sk));
  const erased = new Set<string>();
  const removedPasskeys: RemovedPasskey[] = [];
  const passkeysReset = new Set<string>();
  const emails = new Map<string, string>();
  const accessChanged = new Set<string>();
  for (const entry of entries) {
    const userId = String(entry.entity_id);
    const action = String(entry.action);
    if (HARD_DELETE_ACTIONS.includes(action)) erased.add(userId);
    if (ACCESS_CHANGE_ACTIONS.includes(action)) accessChanged.add(userId);
    if (action === AUDIT_ACTION.passwordReset) passkeysReset.add(userId);
    const passkey = valuesOf(entry, 'old_values').passkey;
    if (PASSKEY_REMOVED_ACTIONS.includes(action) && typeof passkey === 'string' && passkey)
      removedPasskeys.push({ userId, hashPrefix: passkey });
    const email = valuesOf(entry, 'new_values').email;
    // oldest first: the last change wins
    if (action === AUDIT_ACTION.adminUserUpdate && typeof email === 'string') emails.set(userId, email.trim().toLowerCase());
  }
  return { erased, removedPasskeys, passkeysReset, emails, accessChanged };
}

/** Keys a BatchGetItem may ask for at once. */
const BATCH = 100;

async function batchGet(client: DynamoDBDocumentClient, requests: Array<{ table: string; key: { pk: string; sk: string } }>) {
  const found: Array<{ table: string; item: Item }> = [];
  for (let start = 0; start < requests.length; start += BATCH) {
    let wanted: Record<string, { Keys: Record<string, unknown>[]; ConsistentRead: boolean }> = {};
    for (const { table, key } of requests.slice(start, start + BATCH))
      (wanted[table] ??= { Keys: [], ConsistentRead: true }).Keys.push(key);
    while (Object.keys(wanted).length) {
      const answer = await client.send(new BatchGetCommand({ RequestItems: wanted }));
      for (const [table, items] of Object.entries(answer.Responses ?? {}))
        found.push(...items.map((item) => ({ table, item: item as Item })));
      wanted = (answer.UnprocessedKeys ?? {}) as typeof wanted;
    }
  }
  return found;
}

/**
 * Reads the state of the accounts not in `states` yet into it: the live profile (its address
 * and search items, and whether it is being erased), the purge job in the live table (a hard
 * delete started after the restore point, finished or not) and in the restored one (one under
 * way at the restore point). A finished job stays 90 days (functions/admin/purge-job.ts), longer
 * than point-in-time recovery reaches back.
 */
export async function readAccountStates(
  client: DynamoDBDocumentClient,
  tables: { live: string; restored: string },
  ids: readonly string[],
  states: Map<string, AccountState>,
): Promise<void> {
  const unread = [...new Set(ids)].filter((id) => !states.has(id));
  if (!unread.length) return;
  const found = await batchGet(
    client,
    unread.flatMap((id) => [
      { table: tables.live, key: keys.user(id) },
      { table: tables.live, key: keys.purgeJob(id) },
      { table: tables.restored, key: keys.purgeJob(id) },
    ]),
  );
  for (const id of unread) states.set(id, { erased: false });
  for (const { table, item } of found) {
    const id = item.pk.slice(item.pk.indexOf('#') + 1);
    const state = states.get(id)!;
    if (item.pk.startsWith(PK.purge)) state.erased = true;
    else if (table === tables.live) {
      const profile = item as unknown as UserRecord;
      if (profile.status === 'purging') state.erased = true;
      state.live = { emailLower: profile.email_lower, searchKeys: new Set(searchItemKeys(profile).map((key) => key.sk)) };
    }
  }
}
