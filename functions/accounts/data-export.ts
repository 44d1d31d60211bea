import { auditEntriesOf, auditEntryOf, type AuditEntry } from '../lib/audit';
import { queryUpTo } from '../lib/query-pages';
import { publicUser, type UserRecord } from '../lib/user-record';
import { badRequest } from '../lib/errors';
import { auditRefPartition, INDEX, indexPartition, indexQuery, KEY, keys, SK } from '../lib/table';
import { DEFAULT_TIME_ZONE } from '../lib/time-zone';
import { currentDate } from '../lib/clock';
import { sessionEndMs } from '../lib/session';

/**
 * "Download my data" (GDPR articles 15 and 20): everything the product keeps about the account,
 * in one JSON document a person can read and another service can import. Secrets (password hash,
 * code and token hashes) and internal keys are never included.
 *
 * Reads: one paged Query over the account's own partition (profile, sessions, enrollment,
 * progress, task answers), bounded by what one account holds, and the newest AUDIT_EXPORT_PAGE
 * entries of the account's audit history (its entity index). A history has no such bound (years
 * of sign-ins), and a Lambda answer at most 6 MB: the rest follows in bounded answers,
 * `audit_next_cursor` → `?audit_cursor=` (exportAuditPage), which the SPA joins into one file.
 */
export const EXPORT_FORMAT_VERSION = 2;
/** Audit entries an answer carries at most (~1.5 KB each as JSON: ~1.5 MB of the 6 MB a Lambda may answer). */
export const AUDIT_EXPORT_PAGE = 1_000;
/** Longest audit cursor accepted (an entry's index sort key, `<iso time>#<id>`, base64url). */
const MAX_AUDIT_CURSOR = 200;

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
 * A module of the program as the export names it: the caller passes the program's modules in
 * order (the account domain does not read program content itself).
 */
export interface ModuleInOrder {
  module_id: string;
  week_number: number;
  title: string;
  tasks: readonly { task_id: string; label: string }[];
}

/**
 * The learner's written answers and ticked tasks as a person reads them: in program order, each
 * with its week, module and the task's own text (the stored answers are keyed by internal ids).
 */
function answersInProgramOrder(taskItems: Item[], modules: readonly ModuleInOrder[]) {
  const byTask = new Map(taskItems.map((item) => [`${String(item.module_id)}/${String(item.task_id)}`, item]));
  return modules.flatMap((module) =>
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

/**
 * The account's audit entries, newest first, at most AUDIT_EXPORT_PAGE of them after `cursor`
 * (the index sort key of the last entry already exported), and the cursor of the rest (null when
 * none is left). The cursor needs no signature: the query reads the caller's own partition only,
 * so an edited one can only move within the caller's own history. A malformed one is 400
 * `invalid_cursor`.
 */
export async function exportAuditPage(userId: string, cursor?: string, pageSize = AUDIT_EXPORT_PAGE) {
  const after = auditCursorPosition(cursor);
  // the references, and the legacy index for entries `npm run migrate` has not converted yet: both keyed <time>#<id>
  const sources = [
    {
      query: {
        KeyConditionExpression: '#ipk = :ipk',
        ExpressionAttributeNames: { '#ipk': KEY.partitionKey },
        ExpressionAttributeValues: { ':ipk': auditRefPartition.entity('user', userId) },
      },
      sortKey: KEY.sortKey,
    },
    { query: indexQuery('auditByEntity', indexPartition.auditByEntity('user', userId)), sortKey: INDEX.auditByEntity.sortKey },
  ];
  const reads = await Promise.all(
    sources.map(async ({ query, sortKey }) => {
      const { items, truncated } = await queryUpTo(
        {
          ...query,
          ...(after === undefined
            ? {}
            : {
                KeyConditionExpression: `${query.KeyConditionExpression} AND #isk < :after`,
                ExpressionAttributeNames: { ...query.ExpressionAttributeNames, '#isk': sortKey },
                ExpressionAttributeValues: { ...query.ExpressionAttributeValues, ':after': after },
              }),
          ScanIndexForward: false,
          Limit: pageSize,
        },
        pageSize,
      );
      return { items: items.map((item) => ({ item, position: String(item[sortKey]) })), truncated };
    }),
  );
  const merged = [...new Map(reads.flatMap((read) => read.items).map((read) => [read.position, read])).values()].sort((a, b) =>
    a.position < b.position ? 1 : a.position > b.position ? -1 : 0,
  );
  const page = merged.slice(0, pageSize);
  const truncated = merged.length > pageSize || reads.some((read) => read.truncated);
  const last = page.at(-1)?.position;
  return {
    audit_entries: (await auditEntriesOf(page.map(({ item }) => item))).map((item) => withoutOtherActor(auditEntryOf(item), userId)),
    audit_next_cursor: truncated && last !== undefined ? Buffer.from(last).toString('base64url') : null,
  };
}

/**
 * An entry about the learner made by someone else (an administrator) names them only as "an
 * administrator": their email, id, address and browser are their personal data, not the
 * learner's (GDPR art. 15(4)).
 */
function withoutOtherActor(entry: AuditEntry, userId: string): AuditEntry {
  const actor = entry.actor_user_id;
  if (typeof actor !== 'string' || actor === userId) return entry;
  return { ...entry, actor_email: 'an administrator', actor_user_id: null, ip: null, user_agent: null };
}

function auditCursorPosition(cursor: string | undefined): string | undefined {
  const value = cursor?.trim();
  if (!value) return undefined;
  const position =
    /^[A-Za-z0-9_-]+$/.test(value) && value.length <= MAX_AUDIT_CURSOR ? Buffer.from(value, 'base64url').toString('utf8') : '';
  // a position is an index sort key: printable text (a decoded garbage byte is U+FFFD)
  if (!position || [...position].some((char) => char < ' ' || char === '\u007f' || char === '\ufffd')) throw badRequest('invalid_cursor');
  return position;
}

export async function exportAccountData(user: UserRecord, modules: readonly ModuleInOrder[], now = currentDate()) {
  const [own, audit] = await Promise.all([
    queryUpTo({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.user(user.id).pk },
      ConsistentRead: true,
    }),
    exportAuditPage(user.id),
  ]);
  const ofKind = (prefix: string) => own.items.filter((item) => String(item.sk).startsWith(prefix));
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
    notification_preferences: { reminder_frequency: user.reminder_frequency, time_zone: user.time_zone ?? DEFAULT_TIME_ZONE },
    enrollments: ofKind(SK.enrollment).map((item) => pick(item, ENROLLMENT_FIELDS)),
    progress: ofKind(SK.progress).map((item) => pick(item, PROGRESS_FIELDS)),
    task_answers: ofKind(SK.task).map((item) => pick(item, TASK_FIELDS)),
    answers_in_program_order: answersInProgramOrder(ofKind(SK.task), modules),
    certificates: ofKind(SK.certificate).map((item) => pick(item, CERTIFICATE_FIELDS)),
    passkeys: ofKind(SK.passkey).map((item) => pick(item, PASSKEY_FIELDS)),
    // sessions not past their absolute end (the item is kept days longer: functions/lib/session.ts)
    sessions: ofKind(SK.session)
      .filter((item) => !item.ended_at && sessionEndMs(item.created_at as string | undefined) > now.getTime())
      .map((item) => ({
        ...pick(item, SESSION_FIELDS),
        expires_at: new Date(sessionEndMs(item.created_at as string | undefined)).toISOString(),
      })),
    ...audit,
  };
}

export type AccountExport = Awaited<ReturnType<typeof exportAccountData>>;

const AUDIT_PLACE = 'audit-entries-here';
/** An audit entry as an element of the document's `audit_entries` (indented two levels, as JSON.stringify(…, null, 2) would). */
const entryText = (entry: unknown) => `\n    ${JSON.stringify(entry, null, 2).replace(/\n/g, '\n    ')}`;

/**
 * The whole export as the file a person downloads (the text `JSON.stringify(document, null, 2)`
 * gives, as the SPA saves an answer): `first` (exportAccountData's answer) with every older audit
 * entry after its own and no cursor, read
 * AUDIT_EXPORT_PAGE at a time. Each page is turned into text as it is read, so what the function
 * holds is the file's text, not the entries as objects. For an account too large for one answer
 * (functions/lib/export-objects.ts).
 */
export async function exportDocument(userId: string, first: AccountExport, pageSize = AUDIT_EXPORT_PAGE): Promise<Buffer> {
  const { audit_next_cursor: _, ...profileAndMore } = first;
  const head = JSON.stringify({ ...profileAndMore, audit_entries: AUDIT_PLACE }, null, 2);
  // the last occurrence: the account's own texts come before it
  const place = head.lastIndexOf(JSON.stringify(AUDIT_PLACE));
  const parts = [Buffer.from(`${head.slice(0, place)}[`)];
  let page: { audit_entries: unknown[]; audit_next_cursor: string | null } = first;
  let written = 0;
  for (;;) {
    if (page.audit_entries.length) parts.push(Buffer.from(`${written ? ',' : ''}${page.audit_entries.map(entryText).join(',')}`));
    written += page.audit_entries.length;
    if (!page.audit_next_cursor) break;
    page = await exportAuditPage(userId, page.audit_next_cursor, pageSize);
  }
  parts.push(Buffer.from(`${written ? '\n  ' : ''}]${head.slice(place + JSON.stringify(AUDIT_PLACE).length)}`));
  return Buffer.concat(parts);
}
