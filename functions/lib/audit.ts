import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from './config';
import { db, tableName } from './db';
import { count, metricsOfAuditAction } from './metrics';
import { indexKeys, indexPartition, keys, ttlIn } from './table';

/** The sort key of an entry in every audit index: time order, the id breaks ties. */
export const auditSortKey = (createdAt: string, id: string) => `${createdAt}#${id}`;

/**
 * Audit entries: every admin action and every security event. Never edited by the app (hard
 * delete only replaces personal data with a placeholder and clears IP and user agent,
 * functions/lib/audit-privacy.ts; each entry expires after the audit retention, a TTL). Each entry is in the day partition
 * (pk AUDIT#<day> / sk <created_at>#<id>: the unfiltered log, read day by day) and in the indexes
 * the audit screens read, all sorted by <created_at>#<id> so every filter is a newest-first key
 * range (functions/lib/table.ts INDEX, docs/scale-reads.md):
 *   auditByEntity       <type>#<id>     one entity's history (the user drawer)
 *   auditByAction       <action>        the action filter, and the entity-type filter (the
 *                                       actions of that type, functions/lib/audit-actions.ts)
 *   auditByActorId      <user id>       what one account did (the actor filter; hard delete scrubs it)
 *   auditByActorDomain  @<domain>       the actor filter given as a domain (@example.com), and a
 *                                       full address no account holds any more
 * Entries written earlier also carry auditByTime, auditByEntityType and auditByActor keys: no
 * reader uses them (docs/data-model.md "Audit entry cost": a release rolled back past this
 * layout would miss newer entries in those three filters).
 * Every copy is a whole item (the indexes project ALL), so an entry stores only what it has:
 * absent fields are left out, never stored as null (readers take them as null, `auditEntryOf`).
 */
/**
 * Actions that other code reads back from the log: the restore tool keeps hard-deleted accounts
 * and removed passkeys out of a copy-back by them (infra/ops/restore-filter.ts).
 */
export const AUDIT_ACTION = {
  adminHardDelete: 'admin.user.hard_delete',
  systemHardDelete: 'system.user.hard_delete',
  passkeyRemoved: 'auth.passkey_removed',
} as const;

export const auditActorKey = (userId: string) => indexPartition.auditByActorId(userId);

/** The actor-domain index keys of an entry (none without an actor email). */
export function auditActorDomainKeys(actorEmail: string | null | undefined, sortKey: string) {
  const email = actorEmail?.trim().toLowerCase();
  const at = email?.lastIndexOf('@') ?? -1;
  return email && at >= 0 ? indexKeys.auditByActorDomain(email.slice(at + 1), sortKey) : {};
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

export function auditItem(input: AuditInput, now = new Date(), id: string = randomUUID()) {
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
  const sortKey = auditSortKey(createdAt, id);
  return {
    ...keys.audit(createdAt, id),
    // Retention (docs/security.md#privacy-of-the-audit-log): DynamoDB's TTL removes the entry after this many days.
    expires_at: ttlIn(config().auditRetentionDays * 24 * 3600, now.getTime()),
    ...indexKeys.auditByEntity(input.entityType, input.entityId, sortKey),
    ...indexKeys.auditByAction(input.action, sortKey),
    ...(input.actor?.id ? indexKeys.auditByActorId(input.actor.id, sortKey) : {}),
    ...auditActorDomainKeys(input.actor?.email, sortKey),
    ...stored(entry),
  };
}

/** Every audited event is also a business metric (docs/runbook.md), counted here once for all callers. */
const countAudited = (action: string) => metricsOfAuditAction(action).forEach((name) => count(name));

/**
 * A TransactWriteItems entry, for an audit entry written atomically with the change it records.
 * Counted when built: a transaction refused after this (a lost race) over-counts by one.
 */
export const auditPut = (input: AuditInput) => {
  countAudited(input.action);
  return { Put: { TableName: tableName(), Item: auditItem(input) } };
};

export async function writeAudit(input: AuditInput): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: auditItem(input) }));
  countAudited(input.action);
}

/**
 * Writes the entry only if no entry with its id and time exists (a stream batch delivered again
 * writes it once). Returns whether it was written now.
 */
export async function writeAuditOnce(input: AuditInput, at: Date, id: string): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({ TableName: tableName(), Item: auditItem(input, at, id), ConditionExpression: 'attribute_not_exists(pk)' }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
  countAudited(input.action);
  return true;
}
