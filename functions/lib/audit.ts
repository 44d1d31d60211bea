import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from './config';
import { db, tableName } from './db';
import { count, metricsOfAuditAction } from './metrics';
import { keys, ttlIn } from './table';

/**
 * Audit entries (DESIGN §5): every admin action and every security event. Never edited by the
 * app (hard delete only replaces personal data with a placeholder and clears IP and user agent,
 * functions/lib/audit-privacy.ts). Each entry expires after the audit retention (TTL).
 *   pk AUDIT#<day> / sk <created_at>#<id>         by day, newest first within a day
 *   gsi1 AUDIT#ENTITY#<type>#<id> / <created_at>#<id>   one entity's history (the user drawer)
 *   gsi2 AUDIT#ACTOR#<user id>    / <created_at>#<id>   what one account did (hard delete scrubs it)
 */
export const auditActorKey = (userId: string) => `AUDIT#ACTOR#${userId}`;

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

export function auditItem(input: AuditInput, now = new Date()) {
  const createdAt = now.toISOString();
  const id = randomUUID();
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
  return {
    ...keys.audit(createdAt, id),
    type: 'audit',
    // Retention (docs/security.md L9): DynamoDB's TTL removes the entry after this many days.
    expires_at: ttlIn(config().auditRetentionDays * 24 * 3600, now.getTime()),
    gsi1pk: `AUDIT#ENTITY#${input.entityType}#${input.entityId}`,
    gsi1sk: `${createdAt}#${id}`,
    ...(input.actor?.id ? { gsi2pk: auditActorKey(input.actor.id), gsi2sk: `${createdAt}#${id}` } : {}),
    ...entry,
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
