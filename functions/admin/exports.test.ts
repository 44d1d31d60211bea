import { describe, expect, it, vi } from 'vitest';
import { collectCsv, TRUNCATED_LINE } from './exports';

/** A list of `total` numbered items served in pages of `size`, with cursors. */
const pagedList = (total: number, size: number) =>
  vi.fn(async (cursor: string | undefined) => {
    const start = cursor ? Number(cursor) : 0;
    const items = Array.from({ length: Math.max(0, Math.min(size, total - start)) }, (_, i) => ({ n: start + i }));
    const next = start + size < total ? String(start + size) : null;
    return { items, has_next: next !== null, next_cursor: next };
  });

describe('collectCsv', () => {
  it('follows the cursors to the last page and writes a header row', async () => {
    const read = pagedList(7, 3);
    const result = await collectCsv(['n'], read, (item) => [item.n]);
    expect(read.mock.calls.map(([cursor]) => cursor)).toEqual([undefined, '3', '6']);
    expect(result).toEqual({ csv: 'n\r\n0\r\n1\r\n2\r\n3\r\n4\r\n5\r\n6\r\n', rows: 7, truncated: false });
  });

  it('stops at the row cap, reads no further page and says so in the last line', async () => {
    const read = pagedList(100, 3);
    const result = await collectCsv(['n'], read, (item) => [item.n], { rows: 4, bytes: 1e6 });
    expect(result.rows).toBe(4);
    expect(result.truncated).toBe(true);
    expect(read).toHaveBeenCalledTimes(2);
    expect(result.csv.trimEnd().split('\r\n')).toEqual(['n', '0', '1', '2', '3', TRUNCATED_LINE]);
  });

  it('stops before the byte cap', async () => {
    const result = await collectCsv(['n'], pagedList(100, 10), (item) => [`row-${item.n}`], { rows: 1000, bytes: 20 });
    expect(result).toMatchObject({ rows: 2, truncated: true });
  });
});
