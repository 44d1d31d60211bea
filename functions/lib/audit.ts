import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from './config';
import { db, onTransactionCommitted, tableName } from './db';
import { logger } from './logger';
import { count, METRIC, metricsOfAuditAction } from './metrics';
import { auditActionShards } from './audit-actions';
import { batchGetItems } from './batch-items';
import { AUDIT_SHARDS, auditRefPartition, auditShardOf, indexAttributes, keys, PK, STREAMED_REFERENCES, ttlIn } from './table';
import { currentDate } from './clock';

/** The sort key of an entry and of each of its references: time order, the id breaks ties. */
export const auditSortKey = (createdAt: string, id: string) => `${createdAt}#${id}`;

/**
 * Audit entries: every admin action and every security event. Never edited by the app (hard
 * delete only replaces personal data with a placeholder and clears IP and user agent,
 * functions/admin/audit-anonymisation.ts; each entry expires after the audit retention, a TTL).
 *
 * An entry is one item in its day's partition (pk AUDIT#<day>[#<shard>] / sk <created_at>#<id>:
 * the unfiltered log, read day by day) and in no index. What the audit screens filter by is read
 * from reference items, one per access pattern, each keyed <created_at>#<id> so that every filter
 * is a newest-first key range (functions/lib/table.ts auditRefPartition, docs/data-model.md
 * "Audit entry cost"):
 *   entity   <type>#<id>                        one entity's history (the user drawer, the export)
 *   actor    <user id>                          what one account did (the actor filter; hard delete scrubs it)
 *   action   <action>#<month>#<shard>           the action filter, and the entity-type filter (the
 *                                               actions of that type, functions/lib/audit-actions.ts)
 *   domain   <domain>#<month>#<shard>           the actor filter given as a domain (@example.com), and a
 *                                               full address no account holds any more
 * A reference holds only the fields those filters read (action, entity, actor); a page of
 * references fetches its entries by key (`auditEntriesOf`). A reference costs one write unit and
 * about 0.4 KB: an entry with its references is about 2.3 KB and 5 write units, where a whole
 * copy per index was about 5 KB and 5 units (and 11 KB and 16 units with seven indexes).
 * An entry stores only what it has: absent fields are left out, never stored as null (readers
 * take them as null, `auditEntryOf`).
 */
/**
 * Actions that other code reads back from the log: the restore tool keeps hard-deleted accounts,
 * removed passkeys and former addresses out of a copy-back by them (infra/ops/restore-filter.ts).
 */
export const AUDIT_ACTION = {
  adminHardDelete: 'admin.user.hard_delete',
  systemHardDelete: 'system.user.hard_delete',
  passkeyRemoved: 'auth.passkey_removed',
  adminPasskeyRemoved: 'admin.passkey_removed',
  /** Removes every passkey of the account with the new password (functions/accounts/password-reset.ts). */
  passwordReset: 'auth.password_reset',
  /** An administrator's edit of names and address: `new_values.email` is the new address. */
  adminUserUpdate: 'admin.user.update',
} as const;

/** The actor domain of an address (lower-cased, without the @), undefined without one. */
export function actorDomainOf(actorEmail: string | null | undefined): string | undefined {
  const email = actorEmail?.trim().toLowerCase();
  const at = email?.lastIndexOf('@') ?? -1;
  return email && at >= 0 && at < email.length - 1 ? email.slice(at + 1) : undefined;
}

export interface AuditInput {
  action: string;
  actor?: { id?: string; email?: string };
  entityType: string;
  entityId: string;
  oldValues?: Record<string, unknown> | null;
  newValues?: Record<string, unknown> | null;
  ip?: string;
  userAgent?: string;
}

export interface AuditEntry {
  id: string;
  created_at: string;
  action: string;
  actor_user_id: string | null;
  actor_email: string | null;
  entity_type: string;
  entity_id: string;
  old_values: Record<string, unknown> | null;
  new_values: Record<string, unknown> | null;
  ip: string | null;
  user_agent: string | null;
}

const AUDIT_FIELDS: readonly (keyof AuditEntry)[] = [
  'id',
  'created_at',
  'action',
  'actor_user_id',
  'actor_email',
  'entity_type',
  'entity_id',
  'old_values',
  'new_values',
  'ip',
  'user_agent',
];

/** The time of an entry: the start of its sort key (`<created_at>#<id>`, an ISO time has no #). */
const createdAtOf = (item: Record<string, unknown>) =>
  typeof item.created_at === 'string' ? item.created_at : typeof item.sk === 'string' ? item.sk.split('#')[0] : null;

/**
 * An audit entry as the API answers it from a stored item (the table's or an index copy, which
 * carries the table's keys): every field, absent ones as null; the time from the sort key (the
 * item stores it there only; entries written earlier also have `created_at`).
 */
export const auditEntryOf = (item: Record<string, unknown>): AuditEntry =>
  Object.fromEntries(
    AUDIT_FIELDS.map((field) => [field, field === 'created_at' ? createdAtOf(item) : (item[field] ?? null)]),
  ) as unknown as AuditEntry;

/**
 * The entry's fields that are stored: those with a value (null and undefined are left out), and
 * not the time, which the sort key already holds.
 */
const stored = ({ created_at: _, ...entry }: AuditEntry) =>
  Object.fromEntries(Object.entries(entry).filter(([, value]) => value != null)) as Partial<AuditEntry> &
    Pick<AuditEntry, 'id' | 'action' | 'entity_type' | 'entity_id'>;

/** The fields a reference carries: what the audit filters read (functions/admin/audit-log.ts). */
const REF_FIELDS = ['action', 'entity_type', 'entity_id', 'actor_user_id', 'actor_email'] as const;

/** The month bucket of an entry's action and domain references. */
const monthOf = (createdAt: string) => createdAt.slice(0, 7);

/**
 * The reference partitions of an entry, from its fields: the entity's, the actor's (with an actor
 * id), the action's and the actor domain's (with an actor email), each action and domain
 * partition of the entry's month and shard.
 */
export function auditRefPartitions(
  entry: Pick<AuditEntry, 'id' | 'created_at' | 'action' | 'entity_type' | 'entity_id' | 'actor_user_id' | 'actor_email'>,
): string[] {
  const shard = auditShardOf(entry.id);
  const month = monthOf(entry.created_at);
  const domain = actorDomainOf(entry.actor_email);
  return [
    auditRefPartition.entity(entry.entity_type, entry.entity_id),
    ...(entry.actor_user_id ? [auditRefPartition.actor(entry.actor_user_id)] : []),
    auditRefPartition.action(entry.action, month, shard % auditActionShards(entry.action, AUDIT_SHARDS)),
    ...(domain ? [auditRefPartition.domain(domain, month, shard)] : []),
  ];
}

/** The items of one audit entry: the entry in its day's partition, then its references. */
export function auditItems(input: AuditInput, now = currentDate(), id: string = randomUUID()): Record<string, unknown>[] {
  const entry = auditEntryItem(input, now, id);
  return [entry, ...auditRefItemsOf(entry)];
}

/** The stored item of one audit entry, in its day's partition (its references: `auditRefItemsOf`). */
function auditEntryItem(input: AuditInput, now: Date, id: string): Record<string, unknown> {
  const createdAt = now.toISOString();
  const entry: AuditEntry = {
    id,
    created_at: createdAt,
    action: input.action,
    actor_user_id: input.actor?.id ?? null,
    actor_email: input.actor?.email ?? null,
    entity_type: input.entityType,
    entity_id: input.entityId,
    old_values: input.oldValues ?? null,
    new_values: input.newValues ?? null,
    ip: input.ip ?? null,
    user_agent: input.userAgent ? input.userAgent.slice(0, 512) : null,
  };
  // Retention (docs/security.md#privacy-of-the-audit-log): DynamoDB's TTL removes the entry and its references after this many days.
  const expiresAt = ttlIn(config().auditRetentionDays * 24 * 3600, now.getTime());
  return { ...keys.audit(createdAt, id), expires_at: expiresAt, ...stored(entry) };
}

/**
 * The reference items of a stored entry, built from its fields and expiring with it (an entry
 * without `expires_at`: they are kept as long as it is). Its writer, the stream (entries written
 * in a transaction) and the migration of legacy entries all build them here.
 */
export const auditRefItemsOf = (item: Record<string, unknown>): Record<string, unknown>[] =>
  auditRefItems(auditEntryOf(item), typeof item.expires_at === 'number' ? item.expires_at : undefined);

function auditRefItems(entry: AuditEntry, expiresAt: number | undefined): Record<string, unknown>[] {
  const refFields = Object.fromEntries(REF_FIELDS.filter((field) => entry[field] != null).map((field) => [field, entry[field]]));
  return auditRefPartitions(entry).map((partition) => ({
    pk: partition,
    sk: auditSortKey(entry.created_at, entry.id),
    ...(expiresAt === undefined ? {} : { expires_at: expiresAt }),
    ...refFields,
  }));
}

/** The indexes every audit entry was copied into before the references (their key attributes, until `npm run migrate`). */
const LEGACY_AUDIT_INDEXES = [
  'auditByEntity',
  'auditByActorId',
  'auditByTime',
  'auditByAction',
  'auditByEntityType',
  'auditByActor',
  'auditByActorDomain',
] as const;
export const LEGACY_AUDIT_INDEX_ATTRIBUTES = LEGACY_AUDIT_INDEXES.flatMap((name) => indexAttributes(name));

/** Whether a stored entry is still in the legacy layout (index key attributes, no references). */
export const isLegacyAuditEntry = (item: Record<string, unknown>) => LEGACY_AUDIT_INDEX_ATTRIBUTES.some((name) => name in item);

/** Whether a stored item is a reference to an audit entry (not the entry). */
export const isAuditRef = (item: Record<string, unknown>) => typeof item.pk === 'string' && item.pk.startsWith(PK.auditRef);

/**
 * The key of the entry a reference points to: from its sort key (the entry's shard is a hash of
 * its id), or `entry_pk` where the reference names it: an entry written before the shards stays
 * in its day's first partition whatever its id (functions/lib/audit-migration.ts).
 */
export function auditEntryKey(item: Record<string, unknown>): { pk: string; sk: string } {
  const sk = String(item.sk);
  if (typeof item.entry_pk === 'string') return { pk: item.entry_pk, sk };
  const hash = sk.indexOf('#');
  return keys.audit(sk.slice(0, hash), sk.slice(hash + 1));
}

/**
 * The entries of a page of audit items, in the page's order: references are fetched by key (one
 * BatchGetItem for the page, eventually consistent; an entry not found is asked for again with a
 * consistent read, since a reference is written with its entry and one just written may not be
 * visible yet); entries are kept as they are. A reference whose entry is gone (both expire by
 * TTL, not at the same moment) is left out.
 */
export async function auditEntriesOf(items: readonly Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  const wanted = items.filter(isAuditRef).map(auditEntryKey);
  if (!wanted.length) return [...items];
  const keyOf = (key: Record<string, unknown>) => `${String(key.pk)} ${String(key.sk)}`;
  const found = new Map((await batchGetItems(wanted)).map((item) => [keyOf(item), item]));
  const missing = wanted.filter((key) => !found.has(keyOf(key)));
  if (missing.length) for (const item of await batchGetItems(missing, { consistentRead: true })) found.set(keyOf(item), item);
  return items.flatMap((item) => {
    if (!isAuditRef(item)) return [item];
    const entry = found.get(keyOf(auditEntryKey(item)));
    return entry ? [entry] : [];
  });
}

/** Every audited event is also a business metric (docs/runbook.md), counted here once for all callers. */
const countAudited = (action: string) => metricsOfAuditAction(action).forEach((name) => count(name));

/**
 * The TransactWriteItems entry of an audit entry written atomically with the change it records:
 * the entry alone, marked `references: 'stream'`. Its references are put right after the commit,
 * in the same request (`putCommittedAuditRefs`, run by the table client when the transaction
 * commits), so the change is in every filter and in the person's Audit tab when its answer
 * arrives. The mark makes the table's stream check them (functions/lib/audit-stream-refs.ts):
 * a function stopped between the commit and those puts (a timeout, a crash) leaves them to the
 * stream, which writes whatever is missing. DynamoDB charges each item of a transaction twice:
 * the entry costs 2 write units there and its four references one each, where all five in the
 * transaction cost 10 (docs/data-model.md "Audit entry cost").
 * Counted when built: a transaction refused after this (a lost race) over-counts by one.
 */
export const auditPuts = (input: AuditInput): Array<{ Put: { TableName: string; Item: Record<string, unknown> } }> => {
  countAudited(input.action);
  const entry = auditEntryItem(input, currentDate(), randomUUID());
  return [{ Put: { TableName: tableName(), Item: { ...entry, [STREAMED_REFERENCES.attribute]: STREAMED_REFERENCES.value } } }];
};

/** The audit entries among a transaction's items that were written by `auditPuts` (marked for their references). */
export function markedAuditEntries(transactItems: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return transactItems.flatMap((transactItem) => {
    const item = (transactItem.Put as { Item?: Record<string, unknown> } | undefined)?.Item;
    const marked =
      typeof item?.pk === 'string' && item.pk.startsWith(PK.audit) && item[STREAMED_REFERENCES.attribute] === STREAMED_REFERENCES.value;
    return marked ? [item] : [];
  });
}

/**
 * Puts the references of the audit entries a committed transaction wrote. A failure here does
 * not fail the request (its change is committed and answered as done): the stream writes the
 * references that are missing, seconds later, and the miss is logged and counted.
 */
export async function putCommittedAuditRefs(transactItems: readonly Record<string, unknown>[]): Promise<void> {
  const entries = markedAuditEntries(transactItems);
  if (!entries.length) return;
  try {
    await putAuditItems(entries.flatMap(auditRefItemsOf));
  } catch (error) {
    logger.warn('audit references left to the stream', { entries: entries.length, error: error as Error });
    count(METRIC.auditReferencesDeferred);
  }
}
onTransactionCommitted(putCommittedAuditRefs);

/**
 * Puts the references of stored entries that are not there yet (the stream's repair, and the
 * rebuild after an outage of it): reads the references' keys (eventually consistent: one just
 * put and not yet visible is put again, the same item) and puts the missing ones. Returns how many it put.
 */
export async function putMissingAuditRefs(entries: readonly Record<string, unknown>[]): Promise<number> {
  const wanted = entries.flatMap(auditRefItemsOf);
  if (!wanted.length) return 0;
  const keyOf = (item: Record<string, unknown>) => `${String(item.pk)} ${String(item.sk)}`;
  const present = new Set(
    (
      await batchGetItems(
        wanted.map(({ pk, sk }) => ({ pk, sk })),
        { projection: ['pk', 'sk'] },
      )
    ).map(keyOf),
  );
  const missing = wanted.filter((item) => !present.has(keyOf(item)));
  await putAuditItems(missing);
  return missing.length;
}

/**
 * Puts the items of an entry at once, each with its own PutItem: the roles that write audit entries
 * may only put them (a BatchWriteItem grant would also let them delete, docs/security.md).
 */
export const putAuditItems = (items: Record<string, unknown>[]) =>
  Promise.all(items.map((Item) => db().send(new PutCommand({ TableName: tableName(), Item }))));

/** Writes an entry and its references (one PutItem each, in parallel: 5 write units for an entry with an actor). */
export async function writeAudit(input: AuditInput): Promise<void> {
  await putAuditItems(auditItems(input));
  countAudited(input.action);
}

/**
 * Writes the entry only if no entry with its id and time exists (a stream batch delivered again
 * writes it once), then its references: always, so a delivery that stopped between the two
 * completes them (a reference put again is the same item). Returns whether the entry was written now.
 */
export async function writeAuditOnce(input: AuditInput, at: Date, id: string): Promise<boolean> {
  const [entry, ...refs] = auditItems(input, at, id);
  let written = true;
  try {
    await db().send(new PutCommand({ TableName: tableName(), Item: entry, ConditionExpression: 'attribute_not_exists(pk)' }));
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    written = false;
  }
  await putAuditItems(refs);
  if (written) countAudited(input.action);
  return written;
}
