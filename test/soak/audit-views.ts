import type { AuditExpectation } from './oracle';
import { dayOfMs } from './oracle';
import type { World } from './world';

/**
 * The ways the console finds an audit entry (docs/product.md "Audit log"): the person's Audit
 * tab, the action filter, the actor filter by address and by domain, the entity-type filter and
 * the unfiltered log. An erased person's entries keep their entity, action and actor id, but
 * their address is scrubbed (docs/security.md "Privacy of the audit log"): the address and domain
 * views no longer list them, as designed.
 */
export interface AuditRow {
  id: string;
  created_at: string;
  action: string;
  entity_type: string;
  entity_id: string;
  actor_email: string | null;
  actor_user_id: string | null;
  old_values?: unknown;
  new_values?: unknown;
}

export interface AuditView {
  name: string;
  path: string;
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

/** The views that must show the entry, each as the first page read right after it (newest first). */
export function auditViewsOf(expectation: AuditExpectation, actorErased: boolean, world: World): AuditView[] {
  const window = `date_from=${dayOfMs(world.clock.start)}&date_to=${dayOfMs(world.clock.now())}`;
  const views: AuditView[] = [];
  if (expectation.entityType === 'user' && expectation.entityId)
    views.push({ name: "the user's Audit tab", path: `/api/admin/users/${expectation.entityId}/audit-logs` });
  views.push({
    name: 'the action filter',
    path: `/api/admin/audit-logs?action=${encodeURIComponent(expectation.action)}&page_size=100&${window}`,
  });
  if (expectation.actorEmail && !actorErased) {
    views.push({
      name: 'the actor filter',
      path: `/api/admin/audit-logs?actor=${encodeURIComponent(expectation.actorEmail)}&page_size=100&${window}`,
    });
    views.push({
      name: 'the actor domain filter',
      path: `/api/admin/audit-logs?actor=${encodeURIComponent(`@${domainOf(expectation.actorEmail)}`)}&page_size=100&${window}`,
    });
  }
  views.push({
    name: 'the entity-type filter',
    path: `/api/admin/audit-logs?entity_type=${encodeURIComponent(expectation.entityType)}&page_size=100&${window}`,
  });
  views.push({ name: 'the unfiltered log', path: `/api/admin/audit-logs?page_size=100&${window}` });
  return views;
}

/** Whether a page of entries holds the expected one: its action and entity, written before its acknowledgement. */
export function findIn(rows: readonly AuditRow[], expectation: AuditExpectation): AuditRow | undefined {
  return rows.find(
    (row) =>
      row.action === expectation.action &&
      (expectation.entityId === undefined || row.entity_id === expectation.entityId) &&
      Date.parse(row.created_at) <= expectation.at + 1000 &&
      Date.parse(row.created_at) >= expectation.at - 15 * 60_000,
  );
}
