import { describe, expect, it, vi } from 'vitest';
import { csvField } from './csv';
import { collectCsv, TRUNCATED_LINE } from './exports';

/** A list of `total` numbered items served in pages of `size`, with cursors. */
const pagedList = (total: number, size: number) =>
  vi.fn((cursor: string | undefined) => {
    const start = cursor ? Number(cursor) : 0;
    const items = Array.from({ length: Math.max(0, Math.min(size, total - start)) }, (_, i) => ({ n: start + i }));
    const next = start + size < total ? String(start + size) : null;
    return Promise.resolve({ items, has_next: next !== null, next_cursor: next });
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
    const result = await collectCsv(['n'], read, (item) => [item.n], { rows: 4, bytes: 1e6, ms: 1e6 });
    expect(result.rows).toBe(4);
    expect(result.truncated).toBe(true);
    expect(read).toHaveBeenCalledTimes(2);
    expect(result.csv.trimEnd().split('\r\n')).toEqual(['n', '0', '1', '2', '3', csvField(TRUNCATED_LINE)]);
  });

  it('stops reading when the time budget is spent (the Lambda timeout is 10 s)', async () => {
    let now = 0;
    const read = pagedList(1000, 10);
    const slow = async (cursor: string | undefined) => {
      now += 3000; // each page takes 3 s
      return read(cursor);
    };
    const result = await collectCsv(
      ['n'],
      slow,
      (item) => [item.n],
      { rows: 10_000, bytes: 1e9, ms: 7000 },
      () => now,
    );
    expect(read).toHaveBeenCalledTimes(3);
    expect(result).toMatchObject({ rows: 30, truncated: true });
    expect(result.csv.trimEnd().split('\r\n').at(-1)).toBe(csvField(TRUNCATED_LINE));
  });

  it('stops before the byte cap', async () => {
    const result = await collectCsv(['n'], pagedList(100, 10), (item) => [`row-${item.n}`], { rows: 1000, bytes: 20, ms: 1e6 });
    expect(result).toMatchObject({ rows: 2, truncated: true });
  });
});
