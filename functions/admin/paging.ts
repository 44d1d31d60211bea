import { createHmac, timingSafeEqual } from 'node:crypto';
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { MAX_PAGE_WITHOUT_CURSOR, PAGE_SIZES } from '../../shared/constants';
import { db, tableName } from '../lib/db';
import { queryPages } from '../lib/query-pages';
import { badRequest } from '../lib/errors';
import { keyRing } from '../lib/session-keys';
import { INDEX, KEY, type IndexName } from '../lib/table';
import type { ListPage } from '../../shared/admin-types';

/**
 * Paging of the admin lists (docs/scale-reads.md). Every list is read as key ranges of indexes
 * sorted newest first, so a page is "the next `size` items after a position": a cursor holds
 * that position (the sort key of the last item shown), never an offset. `page=N` without a
 * cursor walks the N−1 pages before it, so it is served only up to MAX_PAGE_WITHOUT_CURSOR (a
 * request costs a bounded number of pages); the console pages with cursors.
 */

/** The paged-list contract every admin list answers (shared with the console). */
export type { ListPage };

/**
 * Page parameters: `page` from 1 (anything else → 1, capped at 1000); `page_size` one of
 * 25/50/100, any other value → the default (the SPA only offers those three). Without a cursor,
 * a page above MAX_PAGE_WITHOUT_CURSOR is 400 `page_needs_cursor` (with `max_page`).
 */
export function pageParams(
  raw: { page?: string; page_size?: string; cursor?: string },
  defaultSize: number,
): { page: number; size: number } {
  const asked = Number(raw.page);
  const size = Number(raw.page_size);
  const page = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, 1000) : 1;
  if (page > MAX_PAGE_WITHOUT_CURSOR && !raw.cursor?.trim()) throw badRequest('page_needs_cursor', { max_page: MAX_PAGE_WITHOUT_CURSOR });
  return { page, size: (PAGE_SIZES as readonly number[]).includes(size) ? size : defaultSize };
}

/** What a cursor carries: where the next page starts and what earlier pages already learnt. */
export interface CursorState {
  /** exclusive position: the sort key the next page starts below */
  after: string;
  /** items shown before the next page (exact totals on the last page) */
  shown: number;
  /** the first page's total, so later pages do not count again */
  total?: number;
  estimate?: boolean;
}

let cursorKey: Promise<Buffer> | undefined;
/**
 * A key of its own for cursors, derived from the current session signing key (no new secret to
 * manage). After a key rotation, older cursors answer 400 invalid_cursor: the console starts over.
 */
function cursorMacKey(): Promise<Buffer> {
  cursorKey ??= keyRing().then((ring) => createHmac('sha256', Buffer.from(ring.current.key)).update('admin-list-cursor').digest());
  cursorKey.catch(() => {
    cursorKey = undefined;
  });
  return cursorKey;
}

const mac = (key: Buffer, list: string, body: string) => createHmac('sha256', key).update(`${list}\n${body}`).digest();

/**
 * Signs a cursor for one list (`list` names the list and its filters), so a cursor edited by
 * hand or taken from another list or filter is refused instead of reading from a forged key.
 */
export async function encodeCursor(list: string, state: CursorState): Promise<string> {
  const body = Buffer.from(JSON.stringify(state)).toString('base64url');
  return `${body}.${mac(await cursorMacKey(), list, body).toString('base64url')}`;
}

/** The cursor's state, or 400 `invalid_cursor` when it is malformed, tampered with or foreign. */
export async function decodeCursor(list: string, raw: string | undefined): Promise<CursorState | undefined> {
  const value = raw?.trim();
  if (!value) return undefined;
  const invalid = () => badRequest('invalid_cursor');
  if (value.length > 2048) throw invalid();
  const [body, signature, extra] = value.split('.');
  if (!body || !signature || extra !== undefined) throw invalid();
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(await cursorMacKey(), list, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  let state: unknown;
  try {
    state = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const candidate = state as CursorState;
  if (!candidate || typeof candidate.after !== 'string' || !Number.isInteger(candidate.shown) || candidate.shown < 0) throw invalid();
  return candidate;
}

/**
 * One sorted source of a list: a key range of one index partition, read newest first, with an
 * optional FilterExpression for the filters no key covers.
 */
export interface Stream {
  /** an index, or `table`: a partition of the table itself (its pk / sk) */
  index: IndexName | 'table';
  partition: string;
  /** inclusive bounds of the sort key */
  from?: string;
  to?: string;
  filter?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
}

/** The key attributes (and the index name, none for the table) a stream is read by. */
export function streamKeys(index: Stream['index']): { indexName?: string; partitionKey: string; sortKey: string } {
  return index === 'table' ? { partitionKey: KEY.partitionKey, sortKey: KEY.sortKey } : INDEX[index];
}

/** The sort key an item has in a stream. */
export const streamSortKey = (stream: Stream, item: Record<string, unknown>) => String(item[streamKeys(stream.index).sortKey]);

export interface StreamRead {
  items: Record<string, unknown>[];
  /** sort key of the last item examined when the range has more, else null (exhausted) */
  examinedTo: string | null;
}

export async function readStream(stream: Stream, after: string | undefined, limit: number, projection?: string[]): Promise<StreamRead> {
  const { indexName, partitionKey, sortKey } = streamKeys(stream.index);
  const upper = after !== undefined && (stream.to === undefined || after <= stream.to) ? after : stream.to;
  const names: Record<string, string> = { '#pk': partitionKey, ...stream.filter?.names };
  const values: Record<string, unknown> = { ':pk': stream.partition, ...stream.filter?.values };
  let condition = '#pk = :pk';
  if (stream.from !== undefined || upper !== undefined) names['#sk'] = sortKey;
  if (stream.from !== undefined && upper !== undefined) {
    condition += ' AND #sk BETWEEN :from AND :to';
    Object.assign(values, { ':from': stream.from, ':to': upper });
  } else if (upper !== undefined) {
    condition += ' AND #sk <= :to';
    values[':to'] = upper;
  } else if (stream.from !== undefined) {
    condition += ' AND #sk >= :from';
    values[':from'] = stream.from;
  }
  if (stream.from !== undefined && upper !== undefined && stream.from > upper) return { items: [], examinedTo: null };
  const input: QueryCommandInput = {
    TableName: tableName(),
    ...(indexName ? { IndexName: indexName } : {}),
    KeyConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
    // the range includes its upper bound: when that is the position, its item (already shown) is read again and dropped below
    Limit: upper !== undefined && upper === after ? limit + 1 : limit,
    ...(stream.filter ? { FilterExpression: stream.filter.expression } : {}),
    ...(projection ? { ProjectionExpression: projection.map((_, i) => `#p${i}`).join(', ') } : {}),
  };
  if (projection) projection.forEach((name, i) => (names[`#p${i}`] = name));
  const result = await db().send(new QueryCommand(input));
  // the position itself was shown on the previous page (BETWEEN and <= are inclusive)
  const items = (result.Items ?? []).filter((item) => after === undefined || String(item[sortKey]) < after);
  const last: unknown = result.LastEvaluatedKey?.[sortKey];
  return { items, examinedTo: typeof last === 'string' || typeof last === 'number' ? String(last) : null };
}

export interface MergedPage {
  items: Record<string, unknown>[];
  hasNext: boolean;
  /** where the next page starts (exclusive), when hasNext */
  next?: string;
  /** true when the read budget ended before the page was full (filters skipped many items) */
  short: boolean;
  queries: number;
}

/**
 * The next `size` items after `after` of the merged streams, newest first (by sort key). Each
 * round reads at most `size + 2` items per stream; rounds continue only while filters leave the
 * page short, and stop after `maxRounds`: a page costs at most maxRounds × streams × (size + 2)
 * items, whatever the data. Items of different streams must have distinct sort keys.
 */
export async function readMerged(
  streams: Stream[],
  after: string | undefined,
  size: number,
  options: { maxRounds?: number; projection?: string[] } = {},
): Promise<MergedPage> {
  const maxRounds = options.maxRounds ?? 3;
  const sortKeyOf = streamSortKey;
  const page: Record<string, unknown>[] = [];
  let position = after;
  let live = streams;
  let queries = 0;
  for (let round = 0; round < maxRounds; round++) {
    const reads = await Promise.all(live.map((stream) => readStream(stream, position, size + 2, options.projection)));
    queries += reads.length;
    const candidates = reads.flatMap((read, i) => read.items.map((item) => ({ item, key: sortKeyOf(live[i], item), stream: i })));
    const open = reads.map((read) => read.examinedTo).filter((key): key is string => key !== null);
    // below the highest examined-to key of an unfinished stream, that stream may still hold items
    const horizon = open.length ? open.reduce((a, b) => (a > b ? a : b)) : undefined;
    const emitable = candidates
      .filter(({ key }) => horizon === undefined || key >= horizon)
      .sort((a, b) => (a.key < b.key ? 1 : a.key > b.key ? -1 : 0));
    const wanted = size - page.length;
    const taken = emitable.slice(0, wanted);
    page.push(...taken.map(({ item }) => item));
    const leftover = emitable.length > wanted || candidates.length > emitable.length;
    if (page.length >= size) {
      const more = leftover || open.length > 0;
      return { items: page, hasNext: more, next: more ? lastKeyOf(page, streams) : undefined, short: false, queries };
    }
    if (!open.length && !leftover) return { items: page, hasNext: false, short: false, queries };
    // next round: below the horizon, from the streams that may still hold items there
    const held = new Set(candidates.filter(({ key }) => horizon !== undefined && key < horizon).map(({ stream }) => stream));
    live = live.filter((_, i) => reads[i].examinedTo !== null || held.has(i));
    position = horizon;
  }
  return { items: page, hasNext: true, next: position, short: true, queries };
}

/** The sort key of a page's last item (the next page's exclusive start). */
function lastKeyOf(page: Record<string, unknown>[], streams: Stream[]): string {
  const last = page[page.length - 1];
  for (const stream of streams) {
    const key = last[streamKeys(stream.index).sortKey];
    if (typeof key === 'string' || typeof key === 'number') return String(key);
  }
  throw new Error('page item without a sort key');
}

/**
 * Counts the items of key ranges (Select COUNT), for totals no counter keeps, examining at most
 * `cap` items: exact below the cap, else a lower bound with `estimate` (the console shows "N+").
 * An operator job that needs the exact count passes `Infinity`.
 */
export async function boundedCount(streams: Stream[], cap: number): Promise<{ total: number; estimate: boolean }> {
  let total = 0;
  let examined = 0;
  for (const stream of streams) {
    if (examined >= cap) return { total, estimate: true };
    const { indexName, partitionKey, sortKey } = streamKeys(stream.index);
    const names: Record<string, string> = { '#pk': partitionKey, ...stream.filter?.names };
    const values: Record<string, unknown> = { ':pk': stream.partition, ...stream.filter?.values };
    let condition = '#pk = :pk';
    if (stream.from !== undefined || stream.to !== undefined) names['#sk'] = sortKey;
    if (stream.from !== undefined && stream.to !== undefined) {
      condition += ' AND #sk BETWEEN :from AND :to';
      Object.assign(values, { ':from': stream.from, ':to': stream.to });
    } else if (stream.to !== undefined) {
      condition += ' AND #sk <= :to';
      values[':to'] = stream.to;
    } else if (stream.from !== undefined) {
      condition += ' AND #sk >= :from';
      values[':from'] = stream.from;
    }
    if (stream.from !== undefined && stream.to !== undefined && stream.from > stream.to) continue;
    const pages = queryPages({
      ...(indexName ? { IndexName: indexName } : {}),
      KeyConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      Select: 'COUNT',
      // a page cut short by DynamoDB's 1 MB limit lets the next one read up to this many again:
      // the count stays a true lower bound, possibly a little above `cap`
      ...(Number.isFinite(cap) ? { Limit: cap - examined } : {}),
      ...(stream.filter ? { FilterExpression: stream.filter.expression } : {}),
    });
    for await (const page of pages) {
      total += page.Count ?? 0;
      examined += page.ScannedCount ?? 0;
      if (examined >= cap && page.LastEvaluatedKey) return { total, estimate: true };
    }
  }
  return { total, estimate: false };
}

/** Reads the next `size` items of a list after an exclusive position (readMerged over fixed streams, or a reader of its own). */
export type PageReader = (after: string | undefined, size: number) => Promise<MergedPage>;

/**
 * Reads one page of the streams (or of a reader): after the cursor, or page N by walking N−1 pages (the API's
 * `page` without a cursor, N ≤ MAX_PAGE_WITHOUT_CURSOR: pageParams refuses deeper ones). Totals come from the cursor
 * after the first page.
 */
export async function listPage(
  list: string,
  streams: Stream[] | PageReader,
  raw: { page?: string; cursor?: string },
  page: number,
  size: number,
  countTotal: () => Promise<{ total: number; estimate: boolean }>,
  maxRounds = 3,
  /** a cheap total (counters: a fixed read) is read alongside the page instead of after it */
  countEarly = false,
): Promise<ListPage<Record<string, unknown>> & { truncated?: boolean }> {
  const cursor = await decodeCursor(list, raw.cursor);
  let shownBefore = cursor?.shown ?? 0;
  // a first page (a later one has the total in its cursor)
  const early = countEarly && !cursor ? countTotal() : undefined;
  early?.catch(() => undefined); // awaited below when needed; a failure then surfaces there
  const readPage: PageReader =
    typeof streams === 'function' ? streams : (after, pageSize) => readMerged(streams, after, pageSize, { maxRounds });
  let read = await readPage(cursor?.after, size);
  if (!cursor) {
    for (let walked = 1; walked < page; walked++) {
      shownBefore += read.items.length;
      if (!read.hasNext) {
        read = { items: [], hasNext: false, short: false, queries: 0 }; // past the last page
        break;
      }
      read = await readPage(read.next, size);
    }
  }
  const shown = shownBefore + read.items.length;
  // the last page knows the exact total (everything shown so far); otherwise the first page counts
  const counted = !read.hasNext
    ? { total: shown, estimate: false }
    : cursor?.total !== undefined
      ? { total: cursor.total, estimate: Boolean(cursor.estimate) }
      : await (early ?? countTotal());
  const total = read.hasNext ? Math.max(counted.total, shown + 1) : shown;
  const estimate = read.hasNext ? counted.estimate || counted.total < shown + 1 : false;
  return {
    items: read.items,
    total,
    total_is_estimate: estimate,
    has_next: read.hasNext,
    next_cursor: read.hasNext ? await encodeCursor(list, { after: read.next!, shown, total, estimate }) : null,
    page,
    page_size: size,
    ...(read.short ? { truncated: true } : {}),
  };
}
