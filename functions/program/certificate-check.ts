import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { normalizeCertificateCode } from '../../shared/certificate-code';
import type { PublicCertificate } from '../../shared/program-types';
import { db, tableName } from '../lib/db';
import { notFound } from '../lib/errors';
import { keys } from '../lib/table';
import type { CertificateRecord } from './certificate';

/**
 * The public check of a certificate by its code. Kept apart from certificate.ts so the `auth`
 * Lambda, which serves it without a session, does not load the program content.
 */
/**
 * `GET /api/certificates/{code}`: anyone may check a certificate by its code (404 if unknown).
 * The code is read as typed by a person: any case, dashes or spaces, look-alikes.
 */
export async function verifyCertificate(rawCode: string): Promise<PublicCertificate> {
  const code = normalizeCertificateCode(rawCode);
  if (!code) throw notFound('certificate_not_found');
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: keys.certificate(code) }));
  const record = result.Item as CertificateRecord | undefined;
  if (!record) throw notFound('certificate_not_found');
  return {
    verification_code: record.verification_code,
    name: [record.first_name, record.last_name].filter(Boolean).join(' '),
    program_title: record.program_title,
    completed_at: record.completed_at,
    issued_at: record.issued_at,
    status: record.revoked_at ? 'revoked' : 'valid',
    revoked_at: record.revoked_at ?? null,
  };
}
