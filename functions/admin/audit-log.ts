import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { AUDIT_DEFAULT_PAGE_SIZE, USER_AUDIT_PAGE_SIZE } from '../../shared/constants';
import { dayOf } from '../lib/activity';
import type { AuditEntry } from '../lib/audit';
import { db, tableName } from '../lib/db';
import { badRequest } from '../lib/errors';
import { pageParams, queryCount, queryPage } from './paging';

/**
 * Audit log reads (SPEC §2 "Audit log", drawer Audit tab), newest first.
 *  - one account's entries: gsi1 AUDIT#ENTITY#user#<id>, page N costs N pages, the total a COUNT
 *    of that account's entries;
 *  - the log: the day partitions AUDIT#<day> of a date window, filters applied in memory: cost
 *    bounded by the window. Without dates the window is the last DEFAULT_WINDOW_DAYS days
 *    (answered as `window_days`); a window is at most MAX_WINDOW_DAYS days. With entity_type +
 *    entity_id the entity's own index is read instead (still limited to the window).
 */
export const DEFAULT_WINDOW_DAYS = 30;
export const MAX_WINDOW_DAYS = 366;
const DAY_MS = 24 * 3600 * 1000;

export interface AuditPage {
  items: AuditEntry[];
  total: number;
  has_next: boolean;
  page: number;
  page_size: number;
}

const FIELDS: (keyof AuditEntry)[] = ['id', 'created_at', 'action', 'old_values', 'new_values', 'actor_email', 'actor_user_id', 'entity_type', 'entity_id', 'ip', 'user_agent'];
const entryOf = (item: Record<string, unknown>) => Object.fromEntries(FIELDS.map((field) => [field, item[field] ?? null])) as unknown as AuditEntry;

export async function userAuditLog(userId: string, raw: { page?: string }): Promise<AuditPage> {
  // SPEC §9: the per-user audit page size is fixed at 25
  const { page } = pageParams(raw, USER_AUDIT_PAGE_SIZE);
  const size = USER_AUDIT_PAGE_SIZE;
  const input = {
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': `AUDIT#ENTITY#user#${userId}` },
    ScanIndexForward: false,
  };
  const [{ items, hasMore }, total] = await Promise.all([queryPage(input, page, size), queryCount(input)]);
  return { items: items.map(entryOf), total, has_next: hasMore, page, page_size: size };
}

export interface AuditQuery {
  page?: string;
  page_size?: string;
  actor?: string;
  entity_type?: string;
  entity_id?: string;
  action?: string;
  date_from?: string;
  date_to?: string;
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
function parseDay(value: string | undefined, field: string): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (!DAY_PATTERN.test(trimmed) || Number.isNaN(Date.parse(`${trimmed}T00:00:00Z`)) || dayOf(new Date(`${trimmed}T00:00:00Z`)) !== trimmed) {
    throw badRequest('invalid_date', { field });
  }
  return trimmed;
}

/** The window's days, newest first. */
function windowDays(from: string, to: string): string[] {
  const days: string[] = [];
  for (let time = Date.parse(`${to}T00:00:00Z`); time >= Date.parse(`${from}T00:00:00Z`); time -= DAY_MS) days.push(dayOf(new Date(time)));
  return days;
}

async function queryAll(input: ConstructorParameters<typeof QueryCommand>[0]): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db().send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return items;
}

export async function auditLog(raw: AuditQuery, now = new Date()): Promise<AuditPage & { window_days: number; date_from: string; date_to: string }> {
  const { page, size } = pageParams(raw, AUDIT_DEFAULT_PAGE_SIZE);
  const givenFrom = parseDay(raw.date_from, 'date_from');
  const givenTo = parseDay(raw.date_to, 'date_to');
  const to = givenTo ?? (givenFrom ? dayOf(new Date(Math.min(now.getTime(), Date.parse(`${givenFrom}T00:00:00Z`) + (MAX_WINDOW_DAYS - 1) * DAY_MS))) : dayOf(now));
  const from = givenFrom ?? dayOf(new Date(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_WINDOW_DAYS - 1) * DAY_MS));
  if (from > to) throw badRequest('invalid_date_range');
  const days = windowDays(from, to);
  if (days.length > MAX_WINDOW_DAYS) throw badRequest('date_range_too_long', { max_days: MAX_WINDOW_DAYS });

  const actor = raw.actor?.trim().toLowerCase();
  const entityType = raw.entity_type?.trim();
  const entityId = raw.entity_id?.trim();
  const action = raw.action?.trim();

  let items: Record<string, unknown>[];
  if (entityType && entityId) {
    items = await queryAll({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': `AUDIT#ENTITY#${entityType}#${entityId}`, ':from': from, ':to': `${to}~` },
      ScanIndexForward: false,
    });
  } else {
    // newest day first; a few days in parallel
    const perDay: Record<string, unknown>[][] = [];
    for (let start = 0; start < days.length; start += 8) {
      perDay.push(
        ...(await Promise.all(
          days.slice(start, start + 8).map((day) =>
            queryAll({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `AUDIT#${day}` }, ScanIndexForward: false }),
          ),
        )),
      );
    }
    items = perDay.flat();
  }
  const matches = items.filter(
    (item) =>
      (!actor || String(item.actor_email ?? '').toLowerCase().includes(actor)) &&
      (!entityType || item.entity_type === entityType) &&
      (!entityId || item.entity_id === entityId) &&
      (!action || item.action === action),
  );
  return {
    items: matches.slice((page - 1) * size, page * size).map(entryOf),
    total: matches.length,
    has_next: matches.length > page * size,
    page,
    page_size: size,
    window_days: days.length,
    date_from: from,
    date_to: to,
  };
}
