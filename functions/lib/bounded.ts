/**
 * Runs `task` on every item with at most `limit` running at once: enough parallel calls to hide
 * round trips, few enough to stay inside a table's or a service's burst (the one pool of
 * functions/; callers choose the limit).
 */
export async function forEachBounded<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(Math.max(1, limit), items.length) }, async () => {
      while (next < items.length) await task(items[next++]);
    }),
  );
}
