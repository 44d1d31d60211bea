import { describe, expect, it } from 'vitest';
import { forEachBounded } from './bounded';

describe('forEachBounded', () => {
  it('runs every item, never more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await forEachBounded([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      running++;
      most = Math.max(most, running);
      await Promise.resolve();
      await Promise.resolve();
      done.push(item);
      running--;
    });
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('passes a failure on', async () => {
    await expect(
      forEachBounded([1, 2], 2, (item) => (item === 2 ? Promise.reject(new Error('refused')) : Promise.resolve())),
    ).rejects.toThrow('refused');
  });
});
