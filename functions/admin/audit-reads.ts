import { dayOf } from '../lib/activity';
import { auditActionShards } from '../lib/audit-actions';
import { AUDIT_SHARDS, auditDayPartition, auditRefPartition } from '../lib/table';
import { readStream, streamSortKey, type MergedPage, type PageReader, type Stream } from './paging';

/**
 * The audit log's bucketed reads (functions/admin/audit-log.ts, docs/scale-reads.md). An audit
 * key is split in time buckets, each of a few shard partitions: the day's AUDIT_SHARDS partitions
 * (the unfiltered log), a month's action or actor-domain reference partitions (the action,
 * entity-type and `@domain` filters). A page walks the buckets newest first; each bucket is the
 * lazy merge of its streams below the cursor, so the page comes out in sort-key order
 * (`<created_at>#<id>`, the cursor's position) whatever shard an entry went to.
 */

/** One time bucket: its streams, each bounded (`from`/`to`) to the bucket within the window. */
export interface Bucket {
  streams: Stream[];
}

/**
 * Queries one page may make at least: a 30-day window of empty days is one request; a longer
 * search continues by cursor. A walk whose buckets have many streams may make 3 reads per stream.
 */
export const MIN_WALK_QUERIES = 31 * AUDIT_SHARDS;
const DAY_MS = 24 * 3600 * 1000;

/** A position above every entry of a day or month (`~` sorts after every time in it). */
const above = (prefix: string) => `${prefix}~`;

/** The days `from`…`to` (yyyy-mm-dd), newest first. */
function daysDown(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = to; day >= from; day = dayOf(new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS))) days.push(day);
  return days;
}

/** The months (yyyy-mm) of the days `from`…`to`, newest first. */
export function monthsDown(from: string, to: string): string[] {
  const months: string[] = [];
  let year = Number(to.slice(0, 4));
  let month = Number(to.slice(5, 7));
  for (let name = to.slice(0, 7); name >= from.slice(0, 7); name = `${year}-${String(month).padStart(2, '0')}`) {
    months.push(name);
    month--;
    if (month === 0) {
      year--;
      month = 12;
    }
  }
  return months;
}

/**
 * The buckets of one month each over the days `from`…`to`, newest first: the streams
 * `partitionsOf(month)` names, bounded to the month within the window.
 */
export function monthBuckets(from: string, to: string, partitionsOf: (month: string) => Array<Omit<Stream, 'from' | 'to'>>): Bucket[] {
  return monthsDown(from, to).map((month) => ({
    streams: partitionsOf(month).map((stream) => ({
      ...stream,
      from: month > from ? month : from,
      to: above(month < to.slice(0, 7) ? month : to),
    })),
  }));
}

/** An action's reference partitions of a month: one per shard the action is split in. */
export const actionPartitions = (action: string, month: string): string[] =>
  Array.from({ length: auditActionShards(action, AUDIT_SHARDS) }, (_, shard) => auditRefPartition.action(action, month, shard));

/** An actor domain's reference partitions of a month (every domain has AUDIT_SHARDS). */
export const domainPartitions = (domain: string, month: string): string[] =>
  Array.from({ length: AUDIT_SHARDS }, (_, shard) => auditRefPartition.domain(domain, month, shard));

/** The day log's buckets: each day's AUDIT_SHARDS partitions of entries, newest day first. */
export const dayBuckets = (from: string, to: string, filter?: Stream['filter']): Bucket[] =>
  daysDown(from, to).map((day) => ({
    streams: Array.from({ length: AUDIT_SHARDS }, (_, shard) => ({
      index: 'table' as const,
      partition: auditDayPartition(day, shard),
      from: day,
      to: above(day),
      filter,
    })),
  }));

interface StreamState {
  stream: Stream;
  buffer: { item: Record<string, unknown>; key: string }[];
  /** exclusive position the next read of this stream starts below */
  position: string;
  done: boolean;
  /** items the next read asks for: small at first, doubled per read of the same stream */
  chunk: number;
}

/**
 * The next `size` items of the buckets, newest first. A bucket is read only when the page needs
 * it; within a bucket, every stream whose buffered items are used up is read again, all of them
 * in one parallel round, in small chunks growing while the page keeps taking from it, so a page
 * reads about one page of items (plus one, which tells whether a next page exists). A page makes
 * at most max(MIN_WALK_QUERIES, 3 × the widest bucket's streams) Queries: when empty buckets or
 * filters need more, it answers what it found as a short page whose cursor continues below
 * everything examined.
 */
export function bucketWalk(buckets: Bucket[]): PageReader {
  const maxQueries = Math.max(MIN_WALK_QUERIES, 3 * Math.max(0, ...buckets.map((bucket) => bucket.streams.length)));
  return async (after, size): Promise<MergedPage> => {
    const page: { item: Record<string, unknown>; key: string }[] = [];
    let queries = 0;
    for (const bucket of buckets) {
      const states = bucket.streams
        // a stream wholly at or above the cursor holds nothing for this page (its items were shown)
        .filter((stream) => after === undefined || stream.from === undefined || stream.from < after)
        .map((stream): StreamState => {
          const top = stream.to ?? above('');
          return { stream, buffer: [], position: after !== undefined && after < top ? after : top, done: false, chunk: 0 };
        });
      const firstChunk = Math.max(2, Math.ceil((size + 1 - page.length) / Math.max(1, states.length)));
      for (const state of states) state.chunk = firstChunk;
      while (page.length <= size) {
        const empty = states.filter((state) => !state.done && state.buffer.length === 0);
        if (empty.length && queries + empty.length > maxQueries) return shortPage(states, empty, page, size, queries);
        if (empty.length) {
          const reads = await Promise.all(empty.map((state) => readStream(state.stream, state.position, state.chunk)));
          queries += reads.length;
          reads.forEach((read, i) => {
            const state = empty[i];
            state.buffer = read.items.map((item) => ({ item, key: streamSortKey(state.stream, item) }));
            state.done = read.examinedTo === null;
            if (read.examinedTo !== null) state.position = read.examinedTo;
            state.chunk = Math.min(state.chunk * 2, size + 2);
          });
          continue;
        }
        const top = newestHead(states);
        if (!top) break; // the bucket is read to its end
        page.push(top.buffer.shift()!);
      }
      if (page.length > size) break;
    }
    // one item more than the page tells that a next page exists
    if (page.length <= size) return { items: page.map(({ item }) => item), hasNext: false, short: false, queries };
    const shown = page.slice(0, size);
    return { items: shown.map(({ item }) => item), hasNext: true, next: shown[size - 1].key, short: false, queries };
  };
}

/** The stream whose next buffered item is the newest (none when every buffer is empty). */
function newestHead(states: StreamState[]): StreamState | undefined {
  let top: StreamState | undefined;
  for (const state of states) if (state.buffer.length && (!top || state.buffer[0].key > top.buffer[0].key)) top = state;
  return top;
}

/**
 * The read budget ended with streams still to read: the buffered items above the highest
 * position an unread stream stopped at are safe to show (nothing unread lies above it); the
 * cursor continues from that position.
 */
function shortPage(
  states: StreamState[],
  unread: StreamState[],
  page: { item: Record<string, unknown>; key: string }[],
  size: number,
  queries: number,
): MergedPage {
  const horizon = unread.map((state) => state.position).reduce((a, b) => (a > b ? a : b));
  for (let top = newestHead(states); top && top.buffer[0].key > horizon && page.length < size; top = newestHead(states)) {
    page.push(top.buffer.shift()!);
  }
  const items = page.slice(0, size).map(({ item }) => item);
  return page.length >= size
    ? { items, hasNext: true, next: page[size - 1].key, short: false, queries }
    : { items, hasNext: true, next: horizon, short: true, queries };
}
