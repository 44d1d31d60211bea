import { dayOf } from '../lib/activity';
import { keys } from '../lib/table';
import { readStream, streamSortKey, type MergedPage, type PageReader, type Stream } from './paging';

/**
 * The audit log's two page readers beyond fixed streams (functions/admin/audit-log.ts,
 * docs/scale-reads.md): the day partitions of the table walked newest first (the unfiltered
 * log), and a lazy merge of many index partitions (the entity-type filter: one partition per
 * action of the type).
 */

/** Day-partition Queries one page may make: a 30-day window of empty days is one request; a longer one continues by cursor. */
export const MAX_DAY_QUERIES = 31;
const DAY_MS = 24 * 3600 * 1000;
const previousDay = (day: string) => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS));
/** A position above every entry of a day (`~` sorts after the `T` of every time that day). */
const wholeDay = (day: string) => `${day}~`;

/**
 * The entries of the days `from`…`to` (yyyy-mm-dd), newest first, read one day partition
 * (AUDIT#<day>) at a time, optionally filtered. A page makes at most MAX_DAY_QUERIES Queries:
 * when the window's days or the filter's skips need more, it answers what it found so far as a
 * short page whose cursor continues where the walk ended.
 */
export function dayWalk(from: string, to: string, filter?: Stream['filter']): PageReader {
  return async (after, size) => {
    const page: Record<string, unknown>[] = [];
    const startDay = after !== undefined && after.slice(0, 10) <= to ? after.slice(0, 10) : to;
    let day = startDay;
    let position = after !== undefined && day === after.slice(0, 10) ? after : wholeDay(day);
    let queries = 0;
    while (day >= from) {
      if (queries >= MAX_DAY_QUERIES) {
        if (page.length >= size) break;
        return { items: page, hasNext: true, next: position, short: true, queries };
      }
      const stream: Stream = { index: 'table', partition: keys.audit(day, '').pk, filter };
      // one more than the page needs tells whether a next page exists; a filter skips, so read a page's worth
      const read = await readStream(stream, position, filter ? size + 2 : size + 1 - page.length);
      queries++;
      page.push(...read.items);
      if (page.length > size) break;
      if (read.examinedTo !== null) position = read.examinedTo;
      else {
        day = previousDay(day);
        position = wholeDay(day);
      }
    }
    if (page.length < size || (page.length === size && day < from)) return { items: page, hasNext: false, short: false, queries };
    const shown = page.slice(0, size);
    return { items: shown, hasNext: true, next: streamSortKey({ index: 'table', partition: '' }, shown[size - 1]), short: false, queries };
  };
}

interface StreamState {
  stream: Stream;
  buffer: { item: Record<string, unknown>; key: string }[];
  /** exclusive position the next read of this stream starts below */
  position: string | undefined;
  done: boolean;
  /** items the next read asks for: small at first, doubled per read of the same stream */
  chunk: number;
}

/**
 * The next `size` items of many sorted streams, newest first, fetched lazily: each stream is read
 * in small chunks (growing while the page keeps taking from it) and only when its buffered items
 * are used up, so a page over many partitions reads about one page of items, not streams × page.
 * A page makes at most `maxQueries` Queries (default 3 per stream); when filters skip more than
 * that, it answers a short page whose cursor continues below everything examined.
 */
export function lazyMerge(streams: Stream[], maxQueries = streams.length * 3): PageReader {
  return async (after, size): Promise<MergedPage> => {
    const firstChunk = Math.max(2, Math.ceil((size + 1) / Math.max(1, streams.length)));
    const states: StreamState[] = streams.map((stream) => ({ stream, buffer: [], position: after, done: false, chunk: firstChunk }));
    const page: Record<string, unknown>[] = [];
    let lastKey = '';
    let queries = 0;
    for (;;) {
      if (page.length === size) {
        const more = states.some((state) => state.buffer.length > 0 || !state.done);
        return { items: page, hasNext: more, next: more ? lastKey : undefined, short: false, queries };
      }
      const empty = states.filter((state) => !state.done && state.buffer.length === 0);
      if (empty.length && queries + empty.length > maxQueries) return shortPage(states, empty, page, size, queries);
      if (empty.length) {
        const reads = await Promise.all(empty.map((state) => readStream(state.stream, state.position, state.chunk)));
        queries += reads.length;
        reads.forEach((read, i) => {
          const state = empty[i];
          state.buffer = read.items.map((item) => ({ item, key: streamSortKey(state.stream, item) }));
          state.done = read.examinedTo === null;
          state.position = read.examinedTo ?? undefined;
          state.chunk = Math.min(state.chunk * 2, size + 2);
        });
        continue;
      }
      const top = newestHead(states);
      if (!top) return { items: page, hasNext: false, short: false, queries };
      const taken = top.buffer.shift()!;
      page.push(taken.item);
      lastKey = taken.key;
    }
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
  page: Record<string, unknown>[],
  size: number,
  queries: number,
): MergedPage {
  const horizon = unread.map((state) => state.position!).reduce((a, b) => (a > b ? a : b));
  let lastKey = horizon;
  for (let top = newestHead(states); top && top.buffer[0].key > horizon && page.length < size; top = newestHead(states)) {
    const taken = top.buffer.shift()!;
    page.push(taken.item);
    lastKey = taken.key;
  }
  return page.length === size
    ? { items: page, hasNext: true, next: lastKey, short: false, queries }
    : { items: page, hasNext: true, next: horizon, short: true, queries };
}
