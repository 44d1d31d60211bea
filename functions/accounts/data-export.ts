import type { AuditEntry } from '../lib/audit';
import { queryUpTo } from '../lib/query-pages';
import { publicUser, type UserRecord } from '../lib/user-record';
import { indexPartition, indexQuery } from '../lib/table';
import { program } from '../program/content';

/**
 * "Download my data" (GDPR articles 15 and 20): everything the product keeps about the account,
 * in one JSON document a person can read and another service can import. Secrets (password hash,
 * code and token hashes) and internal keys are never included.
 *
 * Reads: one paged Query over the account's own partition (profile, sessions, enrollment,
 * progress, task answers) and one paged Query of the account's audit history (its entity index),
 * both bounded by what one account holds. The audit history is capped at MAX_AUDIT_ENTRIES (the
 * retention TTL keeps it far below that); `audit_truncated` says so if it ever is reached.
 */
export const EXPORT_FORMAT_VERSION = 1;
export const MAX_AUDIT_ENTRIES = 20_000;

type Item = Record<string, unknown>;

const pick = (item: Item, fields: readonly string[]) =>
  Object.fromEntries(fields.filter((field) => item[field] !== undefined).map((field) => [field, item[field]]));

const ENROLLMENT_FIELDS = [
  'id',
  'program_id',
  'program_title',
  'status',
  'percent_complete',
  'completed_count',
  'module_count',
  'enrolled_at',
  'completed_at',
  'updated_at',
] as const;
const PROGRESS_FIELDS = ['program_id', 'module_id', 'status', 'started_at', 'completed_at', 'updated_at'] as const;
const TASK_FIELDS = ['program_id', 'module_id', 'task_id', 'done', 'answer', 'updated_at'] as const;
const SESSION_FIELDS = ['created_at', 'last_seen_at', 'ip', 'user_agent', 'device'] as const;
const CERTIFICATE_FIELDS = [
  'verification_code',
  'program_title',
  'first_name',
  'last_name',
  'completed_at',
  'issued_at',
  'revoked_at',
] as const;
// A passkey's public key and counters are not the person's data in any readable sense: names and dates.
const PASSKEY_FIELDS = ['name', 'created_at', 'last_used_at'] as const;

/**
 * The learner's written answers and ticked tasks as a person reads them: in program order, each
 * with its week, module and the task's own text (the stored answers are keyed by internal ids).
 */
function answersInProgramOrder(taskItems: Item[]) {
  const byTask = new Map(taskItems.map((item) => [`${String(item.module_id)}/${String(item.task_id)}`, item]));
  return program().modules.flatMap((module) =>
    module.tasks
      .map((task) => ({ task, saved: byTask.get(`${module.module_id}/${task.task_id}`) }))
      .filter(({ saved }) => saved)
      .map(({ task, saved }) => ({
        week: module.week_number,
        module: module.title,
        task: task.label,
        ...(typeof saved!.answer === 'string' && saved!.answer ? { answer: saved!.answer } : {}),
        done: Boolean(saved!.done),
        updated_at: saved!.updated_at ?? null,
      })),
  );
}
const AUDIT_FIELDS: readonly (keyof AuditEntry)[] = [
  'id',
  'created_at',
  'action',
  'actor_email',
  'actor_user_id',
  'entity_type',
  'entity_id',
  'old_values',
  'new_values',
  'ip',
  'user_agent',
];

export async function exportAccountData(user: UserRecord, now = new Date()) {
  const [own, audit] = await Promise.all([
    queryUpTo({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `USER#${user.id}` },
      ConsistentRead: true,
    }),
    queryUpTo(
      {
        ...indexQuery('auditByEntity', indexPartition.auditByEntity('user', user.id)),
        ScanIndexForward: false,
      },
      MAX_AUDIT_ENTRIES,
    ),
  ]);
  const ofKind = (prefix: string) => own.items.filter((item) => String(item.sk).startsWith(prefix));
  const nowSeconds = Math.floor(now.getTime() / 1000);
  return {
    format_version: EXPORT_FORMAT_VERSION,
    exported_at: now.toISOString(),
    profile: {
      ...publicUser(user),
      status: user.status,
      created_at: user.created_at,
      updated_at: user.updated_at,
      last_login_at: user.last_login_at ?? null,
      last_progress_at: user.last_progress_at ?? null,
      last_enrollment_at: user.last_enrollment_at ?? null,
    },
    notification_preferences: { reminder_frequency: user.reminder_frequency },
    enrollments: ofKind('ENROLLMENT#').map((item) => pick(item, ENROLLMENT_FIELDS)),
    progress: ofKind('PROGRESS#').map((item) => pick(item, PROGRESS_FIELDS)),
    task_answers: ofKind('TASK#').map((item) => pick(item, TASK_FIELDS)),
    answers_in_program_order: answersInProgramOrder(ofKind('TASK#')),
    certificates: ofKind('CERTIFICATE#').map((item) => pick(item, CERTIFICATE_FIELDS)),
    passkeys: ofKind('PASSKEY#').map((item) => pick(item, PASSKEY_FIELDS)),
    sessions: ofKind('SESSION#')
      .filter((item) => Number(item.expires_at ?? 0) > nowSeconds)
      .map((item) => ({ ...pick(item, SESSION_FIELDS), expires_at: new Date(Number(item.expires_at) * 1000).toISOString() })),
    audit_entries: audit.items.map((item) => pick(item, AUDIT_FIELDS)),
    audit_truncated: audit.truncated,
  };
}

export type AccountExport = Awaited<ReturnType<typeof exportAccountData>>;
