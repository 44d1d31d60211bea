import { auditItems, type AuditInput } from '../../functions/lib/audit';
import { actorDomainOf } from '../../functions/lib/audit';
import { auditDayPartition, indexKeys } from '../../functions/lib/table';

/**
 * An audit entry as it was stored before the references: one item in the shard-0 day partition
 * with its `created_at` and the key attributes of the audit indexes (what `npm run migrate`
 * converts, functions/lib/audit-migration.ts).
 */
export function legacyAuditItem(input: AuditInput, now = new Date(), id?: string): Record<string, unknown> {
  const [body] = auditItems(input, now, id);
  const createdAt = now.toISOString();
  const sortKey = String(body.sk);
  const domain = actorDomainOf(input.actor?.email);
  return {
    ...body,
    pk: auditDayPartition(createdAt.slice(0, 10), 0),
    created_at: createdAt,
    ...indexKeys.auditByTime(sortKey),
    ...indexKeys.auditByEntity(input.entityType, input.entityId, sortKey),
    ...indexKeys.auditByAction(input.action, sortKey),
    ...indexKeys.auditByEntityType(input.entityType, sortKey),
    ...(input.actor?.id ? indexKeys.auditByActorId(input.actor.id, sortKey) : {}),
    ...(input.actor?.email ? indexKeys.auditByActor(input.actor.email, sortKey) : {}),
    ...(domain ? indexKeys.auditByActorDomain(domain, sortKey) : {}),
  };
}
