import { createHmac } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './db';
import { deviceAuditKey } from './device-audit-key';

/**
 * Privacy of the audit log (docs/security.md#privacy-of-the-audit-log).
 *
 * - Text typed as an email on a failed sign-in may be a password typed in the wrong field, or
 *   someone else's address: only a keyed hash is stored. The same text always gives the same
 *   hash (an admin can see that one address was tried many times, or compare with an address
 *   they know by hashing it), but the hash cannot be reversed without the key.
 * - A hard delete clears IP and user agent of the account's own entries (`anonymiseAuditEntry`).
 * - Every entry expires after the audit retention (TTL, AUDIT_RETENTION_DAYS, default 400).
 */
export async function auditEmailHash(typed: string): Promise<string> {
  const key = await deviceAuditKey('audit-email-hash');
  return `hmac:${createHmac('sha256', key).update(typed.trim().toLowerCase()).digest('base64url').slice(0, 22)}`;
}

/** The personal-data fields of an audit entry that a hard delete replaces or clears. */
export interface AuditAnonymisation {
  oldValues: unknown;
  newValues: unknown;
  actorEmail: string | null;
  /**
   * Clear IP and user agent: true when they may be the deleted person's (they acted, or no one
   * signed in did, e.g. a failed sign-in on their account). An admin's own IP on an entry about
   * the person stays: it is the admin's accountability, not the person's data.
   */
  clearClient: boolean;
}

/**
 * Rewrites one audit entry for a hard-deleted account: the scrubbed values and actor email, and
 * IP and user agent removed. The single place an audit entry is changed after it was written;
 * the hard delete (and its resumable purge) call it per entry. Idempotent.
 */
export async function anonymiseAuditEntry(key: { pk: string; sk: string }, change: AuditAnonymisation): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: key.pk, sk: key.sk },
      UpdateExpression: `SET old_values = :old, new_values = :new, actor_email = :actor${change.clearClient ? ', ip = :null, user_agent = :null' : ''}`,
      ConditionExpression: 'attribute_exists(pk) AND #type = :audit',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: {
        ':old': change.oldValues ?? null,
        ':new': change.newValues ?? null,
        ':actor': change.actorEmail,
        ':audit': 'audit',
        ...(change.clearClient ? { ':null': null } : {}),
      },
    }),
  );
}
