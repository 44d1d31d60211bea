/**
 * Learner progress as shown (docs/product.md#9-business-constants-and-limits): clamped to 0-100 and rounded to one decimal. Anything
 * that is not a finite number (a missing field, NaN) reads as 0 rather than breaking the bar.
 */
export function clampPercent(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return 0;
  const clamped = Math.min(100, Math.max(0, n));
  return Math.round(clamped * 10) / 10;
}

/**
 * '{n}% complete' with one decimal, as the admin console shows percents ('0.0% complete').
 * Formatted here rather than through web/src/utils/format.ts: it is the only formatting the
 * learner dashboard does, and importing that module adds a chunk that takes the dashboard's
 * first load over its 100 KB budget (test/build/web-bundle.test.ts).
 */
export function percentCompleteText(value: unknown): string {
  return `${clampPercent(value).toFixed(1)}% complete`;
}
