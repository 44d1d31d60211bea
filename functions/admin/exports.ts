import { writeAudit } from '../lib/audit';
import { keys } from '../lib/table';
import { program } from '../program/content';
import { batchGetItems } from '../lib/batch-items';
import { badRequest } from '../lib/errors';
import { auditLog, type AuditQuery } from './audit-log';
import type { AdminCaller } from '../lib/admin-caller';
import { csvRow, type CsvValue } from './csv';
import { listUsers, STATUS_SCOPES, USER_FILTERS, type UserListItem, type UserListQuery } from './user-list';
import { currentDate } from '../lib/clock';

/**
 * CSV exports of the admin lists (docs/product.md "CSV exports"): exactly the rows the screen
 * lists with the same filters, read page by page through the lists' own paged reads and
 * cursors (functions/admin/user-list.ts, audit-log.ts), so an export costs what paging through
 * the screen would. A Lambda response is at most 6 MB and is held in memory: an export stops at
 * EXPORT_MAX_ROWS rows, EXPORT_MAX_BYTES bytes or EXPORT_MAX_MS of reading (the function's timeout is
 * 10 s), whichever comes first, and then says so
 * (`truncated`, the `X-Export-Truncated` header and the file's last line).
 */
export const EXPORT_MAX_ROWS = 10_000;
export const EXPORT_MAX_BYTES = 5 * 1024 * 1024;
/** The admin Lambda times out after 10 s (infra/stack.ts): reading stops after 7 s and the file says it is cut. */
export const EXPORT_MAX_MS = 7000;
/** Rows per paged read (the lists' largest page size). */
const EXPORT_PAGE_SIZE = '100';
/** A page may come back short (a rare filter's read budget): reads are bounded on their own too. */
const MAX_READS = (EXPORT_MAX_ROWS / 100) * 3;
export const TRUNCATED_LINE = `Export truncated (at most ${EXPORT_MAX_ROWS} rows, 5 MB or 7 seconds of reading): narrow the filters to export the rest.`;

export interface CsvExport {
  fileName: string;
  csv: string;
  rows: number;
  truncated: boolean;
}

interface Page<T> {
  items: T[];
  has_next: boolean;
  next_cursor: string | null;
}

/** Reads the pages after one another (each page's cursor) into one CSV, stopping at the limits. */
export async function collectCsv<T>(
  header: string[],
  readPage: (cursor: string | undefined) => Promise<Page<T>>,
  toRow: (item: T) => CsvValue[],
  limits = { rows: EXPORT_MAX_ROWS, bytes: EXPORT_MAX_BYTES, ms: EXPORT_MAX_MS },
  clock: () => number = Date.now,
): Promise<{ csv: string; rows: number; truncated: boolean }> {
  const deadline = clock() + limits.ms;
  const parts = [csvRow(header)];
  let bytes = parts[0].length;
  let rows = 0;
  let cursor: string | undefined;
  let truncated = false;
  for (let reads = 0; ; reads++) {
    if (reads >= MAX_READS || (reads > 0 && clock() > deadline)) {
      truncated = true;
      break;
    }
    const page = await readPage(cursor);
    for (const item of page.items) {
      const line = csvRow(toRow(item));
      if (rows >= limits.rows || bytes + line.length > limits.bytes) {
        truncated = true;
        break;
      }
      parts.push(line);
      bytes += line.length;
      rows++;
    }
    if (truncated || !page.has_next || !page.next_cursor) break;
    cursor = page.next_cursor;
  }
  if (truncated) parts.push(csvRow([TRUNCATED_LINE]));
  return { csv: parts.join(''), rows, truncated };
}

const stamp = (now: Date) => now.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');

/**
 * A timestamp as `YYYY-MM-DD HH:MM:SS` (UTC): the form spreadsheets read as a date and time,
 * where an ISO string with `T` and `Z` stays text.
 */
export const csvDateTime = (value: string | null | undefined) => {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString().slice(0, 19).replace('T', ' ');
};

/** The filters, in the file name: `users-deleted-week1_dropoff-smith-20261125-2341.csv` says what it holds. */
const fileNameOf = (base: string, filters: Record<string, string>, now: Date) =>
  [
    base,
    ...Object.values(filters).map((value) =>
      value
        .toLowerCase()
        .replace(/[^a-z0-9._@-]+/g, '_')
        .replace(/^_+|_+$/g, '')
        .slice(0, 40),
    ),
    stamp(now),
  ]
    .filter(Boolean)
    .join('-') + '.csv';

/** The filters an export was asked for (the audit entry records them; no cursor or page). */
const filtersOf = <Q extends object>(raw: Q, names: (keyof Q)[]) =>
  Object.fromEntries(names.map((name) => [name, String(raw[name] ?? '').trim()]).filter(([, value]) => value !== '')) as Record<
    string,
    string
  >;

export const USER_EXPORT_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'status',
  'is_locked',
  'role',
  'created_at',
  'last_login_at',
  'completion_pct',
  'verified',
  'deleted_at',
  'deleted_reason',
  'current_module',
];

type ExportedUser = UserListItem & { deleted_at?: string; deleted_reason?: string; current_module?: string };

/**
 * What the list rows do not carry, for one page: the open module (from the enrollments) and, for
 * soft-deleted accounts, when and why (from their profiles). Two BatchGets a page at most.
 */
async function withExportFields(items: UserListItem[]): Promise<ExportedUser[]> {
  const content = program();
  const titles = new Map(content.modules.map((module) => [module.module_id, `W${module.week_number} · ${module.title}`]));
  const deleted = items.filter((item) => item.status === 'deleted').map((item) => item.id);
  const [enrollments, profiles] = await Promise.all([
    items.length
      ? batchGetItems(
          items.map((item) => keys.enrollment(item.id, content.id)),
          { projection: ['user_id', 'open_module_id'] },
        )
      : [],
    deleted.length
      ? batchGetItems(
          deleted.map((id) => keys.user(id)),
          { projection: ['id', 'deleted_at', 'deleted_reason'] },
        )
      : [],
  ]);
  const open = new Map(
    enrollments.map((item) => [String(item.user_id), titles.get(typeof item.open_module_id === 'string' ? item.open_module_id : '')]),
  );
  const removal = new Map(profiles.map((item) => [String(item.id), item as { deleted_at?: string; deleted_reason?: string }]));
  return items.map((item) => ({
    ...item,
    current_module: open.get(item.id),
    deleted_at: removal.get(item.id)?.deleted_at,
    deleted_reason: removal.get(item.id)?.deleted_reason,
  }));
}

/**
 * `GET /api/admin/users/export.csv?status&filter&query`: the users list with its filters. The
 * list itself falls back to defaults for unknown values (links keep working); an export states
 * what it contains, so an unknown status or filter is refused (400).
 */
export async function exportUsers(raw: UserListQuery, caller: AdminCaller, now = currentDate()): Promise<CsvExport> {
  const status = raw.status?.trim() ?? '';
  const filter = raw.filter?.trim() ?? '';
  if (!(STATUS_SCOPES as readonly string[]).includes(status)) throw badRequest('invalid_status');
  if (filter && !(USER_FILTERS as readonly string[]).includes(filter)) throw badRequest('invalid_filter');
  const query = { status, filter, query: raw.query ?? '' };
  const result = await collectCsv(
    USER_EXPORT_COLUMNS,
    async (cursor) => {
      const page = await listUsers({ ...query, page_size: EXPORT_PAGE_SIZE, cursor }, now);
      return { ...page, items: await withExportFields(page.items) };
    },
    (user) => [
      user.id,
      user.email,
      user.first_name,
      user.last_name,
      user.status,
      user.is_locked,
      user.role,
      csvDateTime(user.created_at),
      csvDateTime(user.last_login_at),
      user.completion_pct,
      user.verified,
      csvDateTime(user.deleted_at),
      user.deleted_reason,
      user.current_module,
    ],
  );
  await writeAudit({
    action: 'admin.export_users',
    actor: { id: caller.admin.id, email: caller.admin.email },
    entityType: 'export',
    entityId: 'users',
    newValues: { filters: filtersOf(raw, ['status', 'filter', 'query']), rows: result.rows, truncated: result.truncated },
    ip: caller.ip,
    userAgent: caller.userAgent,
  });
  return { fileName: fileNameOf('users', filtersOf(raw, ['status', 'filter', 'query']), now), ...result };
}

export const AUDIT_EXPORT_COLUMNS = [
  'created_at',
  'action',
  'actor_email',
  'actor_user_id',
  'entity_type',
  'entity_id',
  'ip',
  'user_agent',
  'old_values',
  'new_values',
  'id',
];
const json = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

/** `GET /api/admin/audit-logs/export.csv?actor&entity_type&entity_id&action&date_from&date_to`: the audit log with its filters. */
export async function exportAuditLog(raw: AuditQuery, caller: AdminCaller, now = currentDate()): Promise<CsvExport> {
  const query: AuditQuery = {
    actor: raw.actor,
    entity_type: raw.entity_type,
    entity_id: raw.entity_id,
    action: raw.action,
    date_from: raw.date_from,
    date_to: raw.date_to,
  };
  const result = await collectCsv(
    AUDIT_EXPORT_COLUMNS,
    (cursor) => auditLog({ ...query, page_size: EXPORT_PAGE_SIZE, cursor }, now),
    (entry) => [
      csvDateTime(entry.created_at),
      entry.action,
      entry.actor_email,
      entry.actor_user_id,
      entry.entity_type,
      entry.entity_id,
      entry.ip,
      entry.user_agent,
      json(entry.old_values),
      json(entry.new_values),
      entry.id,
    ],
  );
  await writeAudit({
    action: 'admin.export_audit',
    actor: { id: caller.admin.id, email: caller.admin.email },
    entityType: 'export',
    entityId: 'audit_logs',
    newValues: {
      filters: filtersOf(raw, ['actor', 'entity_type', 'entity_id', 'action', 'date_from', 'date_to']),
      rows: result.rows,
      truncated: result.truncated,
    },
    ip: caller.ip,
    userAgent: caller.userAgent,
  });
  const filters = filtersOf(raw, ['action', 'entity_type', 'entity_id', 'actor', 'date_from', 'date_to']);
  return { fileName: fileNameOf('audit-log', filters, now), ...result };
}
