import { AUDIT_DEFAULT_PAGE_SIZE, USER_AUDIT_PAGE_SIZE } from '../../shared/constants';
import { dayOf } from '../lib/activity';
import { auditEntriesOf, auditEntryOf, type AuditEntry } from '../lib/audit';
import { actionHasManyEntityTypes, auditActionsOf } from '../lib/audit-actions';
import { badRequest } from '../lib/errors';
import { queryPages } from '../lib/query-pages';
import { auditRefPartition, keys } from '../lib/table';
import { actionPartitions, bucketWalk, dayBuckets, domainPartitions, monthBuckets } from './audit-reads';
import { listPage, pageParams, type ListPage, type PageReader, type Stream } from './paging';
import { currentDate } from '../lib/clock';

/**
 * Audit log reads (the audit screen and the drawer's Audit tab), newest first, every one a key
 * range sorted by <created_at>#<id> (functions/lib/audit.ts, docs/scale-reads.md). Entries are
 * in no index: a filter reads reference partitions (functions/lib/table.ts auditRefPartition),
 * and the page's references are replaced by their entries with one BatchGetItem (auditEntriesOf):
 *  - the key is the most selective filter given: an actor domain (`@domain`) → the domain's
 *    partitions, month by month, each month's shards merged (references carry no domain, so the
 *    domain is the key whatever else is given); entity (type + id) → the entity's partition;
 *    entity id alone → the entity's partition of each entity type; actor → the actor partitions
 *    of the accounts whose email starts with it (at most MAX_ACTOR_STREAMS; a full address no
 *    account holds any more: its domain's partitions, filtered); action → the action's
 *    partitions, month by month; entity type → the partitions of each of the type's actions,
 *    month by month, merged (functions/lib/audit-actions.ts); none → the table's day
 *    partitions of entries, newest day first, each day's shards merged;
 *  - the date window is the sort-key range (and the days or months walked); the other filters a
 *    FilterExpression on the fields a reference carries, so a page is exact before its entries
 *    are read;
 *  - a page's reads are bounded (functions/admin/audit-reads.ts, readMerged): when filters skip
 *    many, the page comes back short with `has_next` and a `next_cursor` that continues the search.
 * Without dates the window is the last DEFAULT_WINDOW_DAYS days (answered as `window_days`); a
 * window is at most MAX_WINDOW_DAYS days. A `date_from` in the future answers an empty page.
 * Totals: no count is read for the log (it would cost more than the page): `total` is exact on
 * the last page and a lower bound before it (`total_is_estimate`, shown as "51+"). One account's
 * entries (the drawer) are answered the same way ("26+"): a heavy account's history is not counted.
 */
export const DEFAULT_WINDOW_DAYS = 30;
export const MAX_WINDOW_DAYS = 366;
/** A prefix matching more accounts than this is answered by a filtered time range instead. */
export const MAX_ACTOR_STREAMS = 5;
const DAY_MS = 24 * 3600 * 1000;
/** The entity types an entity id alone is looked up in (functions/lib/admin-caller.ts, functions/lib/caller.ts). */
export const ENTITY_TYPES = ['user', 'enrollment', 'program'] as const;

export type AuditPage = ListPage<AuditEntry>;

/** A page of audit items (entries, or references to them) as the API answers it: the entries, in the page's order. */
const entriesOf = async (items: Record<string, unknown>[]) => (await auditEntriesOf(items)).map(auditEntryOf);

export async function userAuditLog(userId: string, raw: { page?: string; cursor?: string }): Promise<AuditPage> {
  // the per-user audit page size is fixed at 25 (docs/scale-reads.md)
  const { page } = pageParams(raw, USER_AUDIT_PAGE_SIZE);
  const streams: Stream[] = [{ index: 'table', partition: auditRefPartition.entity('user', userId) }];
  // no count (an account's history has no bound): a lower bound before the last page, like the log's
  const result = await listPage(JSON.stringify(['user-audit', userId]), streams, raw, page, USER_AUDIT_PAGE_SIZE, () =>
    Promise.resolve({ total: 0, estimate: true }),
  );
  return { ...result, items: await entriesOf(result.items) };
}

export interface AuditQuery {
  page?: string;
  page_size?: string;
  cursor?: string;
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
  if (
    !DAY_PATTERN.test(trimmed) ||
    Number.isNaN(Date.parse(`${trimmed}T00:00:00Z`)) ||
    dayOf(new Date(`${trimmed}T00:00:00Z`)) !== trimmed
  ) {
    throw badRequest('invalid_date', { field });
  }
  return trimmed;
}

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/**
 * The accounts whose email starts with `prefix` (the admin search's email items), at most
 * `limit + 1` of them: more means the prefix is too broad to merge one stream per account.
 */
async function accountsWithEmailStartingWith(prefix: string, limit: number): Promise<{ id: string; email: string }[] | 'too_many'> {
  const accounts = new Map<string, string>();
  let round = 0;
  const pages = queryPages({
    // a key range (not begins_with): the same items, and DynamoDB Local seeks instead of filtering the partition
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :prefix AND :end',
    ExpressionAttributeValues: {
      ':pk': keys.userSearch(prefix, '', '').pk,
      ':prefix': prefix,
      ':end': `${prefix}\uffff`,
      ':email': 'email',
    },
    FilterExpression: 'field = :email',
    ProjectionExpression: 'sk',
    Limit: 100,
  });
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      // <email>#<user id>#email (an email may itself hold a #)
      const parts = String(item.sk).split('#');
      accounts.set(parts.at(-2)!, parts.slice(0, -2).join('#'));
    }
    if (accounts.size > limit) return 'too_many';
    if (!page.LastEvaluatedKey) return [...accounts].map(([id, email]) => ({ id, email }));
    if (++round >= 3) break;
  }
  return 'too_many';
}

type Filter = NonNullable<Stream['filter']>;
const andFilters = (filters: Filter[]): Filter | undefined =>
  filters.length
    ? {
        expression: filters.map((filter) => `(${filter.expression})`).join(' AND '),
        names: Object.fromEntries(filters.flatMap((filter) => Object.entries(filter.names ?? {}))),
        values: Object.fromEntries(filters.flatMap((filter) => Object.entries(filter.values ?? {}))),
      }
    : undefined;

/**
 * The actor filter given as (a prefix of) an email: the actor partition of each account whose
 * email starts with it (at most MAX_ACTOR_STREAMS). A full address no account holds any more
 * (changed since) is read from its domain's partitions, month by month, filtered by the address.
 * Undefined when the prefix matches too many accounts, or none while an action or entity type is
 * given: the caller reads those by their key, filtered by the prefix.
 */
async function actorStreams(
  actor: string,
  window: { from: string; to: string },
  filter: Filter | undefined,
  otherKey: boolean,
): Promise<Stream[] | PageReader | undefined> {
  const accounts = await accountsWithEmailStartingWith(actor, MAX_ACTOR_STREAMS);
  if (accounts === 'too_many') return undefined;
  const formerAddress = /^[^@\s]+@[^@\s]+$/.test(actor) && !accounts.some((account) => account.email === actor);
  if (!accounts.length && !formerAddress && otherKey) return undefined;
  const byAccount = accounts.map((account): Stream => ({ index: 'table', partition: auditRefPartition.actor(account.id), filter }));
  if (!formerAddress) return byAccount.map((stream) => ({ ...stream, from: window.from, to: `${window.to}~` }));
  const ids = Object.fromEntries(accounts.map((account, i) => [`:account${i}`, account.id]));
  const byAddress = andFilters([
    {
      expression: `actor_email = :address${accounts.length ? ` AND NOT (actor_user_id IN (${Object.keys(ids).join(', ')}))` : ''}`,
      values: { ':address': actor, ...ids },
    },
    ...(filter ? [filter] : []),
  ]);
  const domain = actor.slice(actor.lastIndexOf('@') + 1);
  // the accounts' partitions are bounded to each month too, so one walk merges them with the domain's
  return bucketWalk(
    monthBuckets(window.from, window.to, (month) => [
      ...byAccount,
      ...domainPartitions(domain, month).map((partition): Stream => ({ index: 'table', partition, filter: byAddress })),
    ]),
  );
}

export async function auditLog(
  raw: AuditQuery,
  now = currentDate(),
): Promise<AuditPage & { window_days: number; date_from: string; date_to: string; truncated?: boolean }> {
  const { page, size } = pageParams(raw, AUDIT_DEFAULT_PAGE_SIZE);
  const givenFrom = parseDay(raw.date_from, 'date_from');
  const givenTo = parseDay(raw.date_to, 'date_to');
  const today = dayOf(now);
  if (givenFrom && givenTo && givenFrom > givenTo) throw badRequest('invalid_date_range');
  const to =
    givenTo ??
    (givenFrom ? dayOf(new Date(Math.min(now.getTime(), Date.parse(`${givenFrom}T00:00:00Z`) + (MAX_WINDOW_DAYS - 1) * DAY_MS))) : today);
  const from = givenFrom ?? dayOf(new Date(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_WINDOW_DAYS - 1) * DAY_MS));
  const windowDays = Math.max(0, daysBetween(from, to));
  if (windowDays > MAX_WINDOW_DAYS) throw badRequest('date_range_too_long', { max_days: MAX_WINDOW_DAYS });
  const window = { window_days: windowDays, date_from: from, date_to: to };
  // a window starting after today (as a new user might try) holds nothing yet: an empty page
  if (from > to)
    return { items: [], total: 0, total_is_estimate: false, has_next: false, next_cursor: null, page, page_size: size, ...window };

  const actor = raw.actor?.trim().toLowerCase() || undefined;
  const entityType = raw.entity_type?.trim() || undefined;
  const entityId = raw.entity_id?.trim() || undefined;
  const action = raw.action?.trim() || undefined;
  const range = { from, to: `${to}~` };

  // the filters no key covers, as FilterExpression parts
  const filterAction: Filter | undefined = action
    ? { expression: '#action = :action', names: { '#action': 'action' }, values: { ':action': action } }
    : undefined;
  const filterType: Filter | undefined = entityType
    ? { expression: 'entity_type = :entityType', values: { ':entityType': entityType } }
    : undefined;
  const filterId: Filter | undefined = entityId ? { expression: 'entity_id = :entityId', values: { ':entityId': entityId } } : undefined;
  const actorIsDomain = Boolean(actor?.startsWith('@'));
  // a domain is always the key (no reference carries it), so only an address prefix is filtered
  const filterActor: Filter | undefined =
    actor && !actorIsDomain ? { expression: 'begins_with(actor_email, :actorEmail)', values: { ':actorEmail': actor } } : undefined;
  const except = (...skip: (Filter | undefined)[]) =>
    andFilters([filterAction, filterType, filterId, filterActor].filter((f): f is Filter => Boolean(f) && !skip.includes(f)));

  let streams: Stream[] | PageReader | undefined;
  const tableStream = (partition: string, filter: Filter | undefined): Stream => ({ index: 'table', partition, filter });
  if (actor && actorIsDomain) {
    const others = except();
    streams = bucketWalk(monthBuckets(from, to, (month) => domainPartitions(actor.slice(1), month).map((p) => tableStream(p, others))));
  } else if (entityId) {
    const types = entityType ? [entityType] : [...ENTITY_TYPES];
    streams = types.map((type) => ({ ...tableStream(auditRefPartition.entity(type, entityId), except(filterType, filterId)), ...range }));
  } else if (actor) {
    streams = await actorStreams(actor, { from, to }, except(filterActor), Boolean(action || entityType));
  }
  if (streams === undefined && action) {
    const others = except(filterAction);
    streams = bucketWalk(monthBuckets(from, to, (month) => actionPartitions(action, month).map((p) => tableStream(p, others))));
  } else if (streams === undefined && entityType) {
    // each month, the partitions of the type's actions, merged (functions/lib/audit-actions.ts)
    const actions = auditActionsOf(entityType);
    const typeFilter = except(filterType);
    // an action written for more than one type keeps only this type's entries
    const manyTypes = andFilters([filterType, typeFilter].filter((f): f is Filter => Boolean(f)));
    streams = actions.length
      ? bucketWalk(
          monthBuckets(from, to, (month) =>
            actions.flatMap((name) =>
              actionPartitions(name, month).map((p) => tableStream(p, actionHasManyEntityTypes(name) ? manyTypes : typeFilter)),
            ),
          ),
        )
      : [];
  } else if (streams === undefined) {
    streams = bucketWalk(dayBuckets(from, to, except()));
  }
  if (Array.isArray(streams) && !streams.length)
    return { items: [], total: 0, total_is_estimate: false, has_next: false, next_cursor: null, page, page_size: size, ...window };

  const list = JSON.stringify(['audit', actor ?? '', entityType ?? '', entityId ?? '', action ?? '', givenFrom ?? '', givenTo ?? '']);
  const result = await listPage(list, streams, raw, page, size, () => Promise.resolve({ total: 0, estimate: true }));
  return { ...result, items: await entriesOf(result.items), ...window };
}
