import { randomInt } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { CertificateView } from '../../shared/program-types';
import { appUrl } from '../lib/app-url';
import { accountAudit, type Caller } from '../lib/caller';
import { auditPuts } from '../lib/audit';
import { db, tableName } from '../lib/db';
import { forbidden } from '../lib/errors';
import { keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { program } from './content';
import { loadLearnerProgram } from './learner-program';
import { CERTIFICATE_CODE_ALPHABET } from '../../shared/certificate-code';
import { nowIso } from '../lib/clock';
import { isConditionRefusal, transactWrite } from '../lib/transact-write';

/**
 * Certificates of completion (docs/product.md#certificates). Issued on the learner's first
 * request once every module is completed, as two items written together: the learner's own
 * (USER#<id> / CERTIFICATE#<program>, so a hard delete of the partition takes it) and a public
 * copy keyed by the verification code (CERT#<code>), which anyone can check without signing in.
 * The names are those of the day of issue. Reopening a module later does not revoke it; only an
 * administrator does (audited), and a revoked certificate verifies as revoked.
 */
export interface CertificateRecord {
  verification_code: string;
  user_id: string;
  program_id: string;
  program_title: string;
  first_name: string;
  last_name: string;
  completed_at: string;
  issued_at: string;
  revoked_at?: string;
  revoked_reason?: string;
}

const ALPHABET = CERTIFICATE_CODE_ALPHABET;

/** 60 random bits as XXXX-XXXX-XXXX: unguessable, short enough to type from a printed page. */
export function newVerificationCode(): string {
  const chars = Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return [chars.slice(0, 4), chars.slice(4, 8), chars.slice(8)].map((group) => group.join('')).join('-');
}

const verifyUrl = async (code: string) => `${await appUrl()}/certificates/${code}`;

async function view(record: CertificateRecord): Promise<CertificateView> {
  return {
    verification_code: record.verification_code,
    first_name: record.first_name,
    last_name: record.last_name,
    program_title: record.program_title,
    completed_at: record.completed_at,
    issued_at: record.issued_at,
    verify_url: await verifyUrl(record.verification_code),
  };
}

export async function getUserCertificate(userId: string, programId = program().id): Promise<CertificateRecord | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.userCertificate(userId, programId), ConsistentRead: true }),
  );
  return result.Item as CertificateRecord | undefined;
}

/** `GET /api/certificate`: the learner's certificate, issued now if the program was just completed. */
export async function getOrIssueCertificate(user: UserRecord, caller: Caller): Promise<CertificateView> {
  const existing = await getUserCertificate(user.id);
  if (existing?.revoked_at) throw forbidden('certificate_revoked');
  if (existing) return view(existing);

  const { content, enrollment, derived } = await loadLearnerProgram(user);
  if (derived.open || derived.completed < derived.total) {
    throw forbidden('program_not_completed', { completed: derived.completed, total: derived.total });
  }
  const now = nowIso();
  const record: CertificateRecord = {
    verification_code: newVerificationCode(),
    user_id: user.id,
    program_id: content.id,
    program_title: content.title,
    first_name: user.first_name,
    last_name: user.last_name,
    completed_at: enrollment.completed_at ?? enrollment.updated_at ?? now,
    issued_at: now,
  };
  try {
    await transactWrite({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.userCertificate(user.id, content.id), type: 'certificate', ...record },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.certificate(record.verification_code), type: 'certificate_public', ...record },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        ...auditPuts(
          accountAudit('learner.certificate.issued', user, caller, {
            new: { verification_code: record.verification_code, program_id: content.id },
          }),
        ),
      ],
    });
  } catch (error) {
    if (!isConditionRefusal(error)) throw error;
    // Two tabs asked at once: the other request issued it.
    const winner = await getUserCertificate(user.id);
    if (winner) return view(winner);
    throw error;
  }
  return view(record);
}
