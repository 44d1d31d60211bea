import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { getUserCertificate } from '../program/certificate';
import { auditPuts } from '../lib/audit';
import { db, tableName } from '../lib/db';
import { conflict, notFound } from '../lib/errors';
import { keys } from '../lib/table';
import { adminAudit, type AdminCaller } from '../lib/admin-caller';
import { nowIso } from '../lib/clock';

/**
 * `POST /api/admin/users/{id}/certificate/revoke`: both copies of the certificate are marked
 * revoked with the audit entry in one transaction; the public check then answers "revoked".
 */
export async function revokeCertificate(userId: string, reason: string | undefined, caller: AdminCaller) {
  const existing = await getUserCertificate(userId);
  if (!existing) throw notFound('no_certificate');
  if (existing.revoked_at) throw conflict('already_revoked');
  const revokedAt = nowIso();
  const revokedReason = reason?.trim() || null;
  const revoke = (key: { pk: string; sk: string }) => ({
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET revoked_at = :at, revoked_reason = :reason',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revoked_at)',
      ExpressionAttributeValues: { ':at': revokedAt, ':reason': revokedReason },
    },
  });
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          revoke(keys.userCertificate(userId, existing.program_id)),
          revoke(keys.certificate(existing.verification_code)),
          ...auditPuts(
            adminAudit(
              caller,
              'admin.certificate.revoke',
              { type: 'user', id: userId },
              {
                old: { verification_code: existing.verification_code, revoked: false },
                new: { verification_code: existing.verification_code, revoked: true, reason: revokedReason },
              },
            ),
          ),
        ],
      }),
    );
  } catch (error) {
    // another admin revoked it between our read and write
    if (error instanceof TransactionCanceledException) throw conflict('already_revoked');
    throw error;
  }
  return { verification_code: existing.verification_code, revoked_at: revokedAt };
}
