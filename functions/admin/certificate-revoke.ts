import { getUserCertificate } from '../program/certificate';
import { auditPuts } from '../lib/audit';
import { tableName } from '../lib/db';
import { conflict, notFound } from '../lib/errors';
import { keys } from '../lib/table';
import { adminAudit, type AdminCaller } from '../lib/admin-caller';
import { accountStateCheck, assertAccepts, BEING_ERASED } from '../lib/account-states';
import { getUserById } from '../lib/users';
import { nowIso } from '../lib/clock';
import { isConditionRefusal, transactWrite } from '../lib/transact-write';

/**
 * `POST /api/admin/users/{id}/certificate/revoke`: both copies of the certificate are marked
 * revoked with the audit entry in one transaction; the public check then answers "revoked". An
 * unknown account → 404 `not_found`; one being erased → 409 `account_being_erased`.
 */
export async function revokeCertificate(userId: string, reason: string | undefined, caller: AdminCaller) {
  const user = await getUserById(userId);
  if (!user) throw notFound();
  assertAccepts('revokeCertificate', user);
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
    await transactWrite({
      TransactItems: [
        revoke(keys.userCertificate(userId, existing.program_id)),
        revoke(keys.certificate(existing.verification_code)),
        // an account whose purge started meanwhile is not written to
        accountStateCheck('revokeCertificate', userId),
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
    });
  } catch (error) {
    if (!isConditionRefusal(error)) throw error;
    if (error.CancellationReasons?.[2]?.Code === 'ConditionalCheckFailed') throw conflict(BEING_ERASED);
    // another admin revoked it between our read and write
    throw conflict('already_revoked');
  }
  return { verification_code: existing.verification_code, revoked_at: revokedAt };
}
