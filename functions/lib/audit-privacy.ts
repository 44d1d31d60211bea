import { createHmac } from 'node:crypto';
import { deviceAuditKey } from './device-audit-key';

/**
 * Privacy of the audit log (docs/security.md#privacy-of-the-audit-log).
 *
 * - Text typed as an email on a failed sign-in may be a password typed in the wrong field, or
 *   someone else's address: only a keyed hash is stored. The same text always gives the same
 *   hash (an admin can see that one address was tried many times, or compare with an address
 *   they know by hashing it), but the hash cannot be reversed without the key.
 * - A hard delete scrubs the account's personal data from its entries, and IP and user agent from
 *   its own (functions/admin/audit-anonymisation.ts).
 * - Every entry expires after the audit retention (TTL, AUDIT_RETENTION_DAYS, default 400).
 */
export async function auditEmailHash(typed: string): Promise<string> {
  const key = await deviceAuditKey('audit-email-hash');
  return `hmac:${createHmac('sha256', key).update(typed.trim().toLowerCase()).digest('base64url').slice(0, 22)}`;
}
