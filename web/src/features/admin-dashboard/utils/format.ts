const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** A value already in percent, one decimal (docs/product.md#9-business-constants-and-limits "Percent cards show one decimal"). */
export const percent = (value: unknown) => (finite(value) ? `${value.toFixed(1)}%` : '—');

/** A 0–1 fraction shown as a percent, one decimal. */
export const fractionPercent = (value: unknown) => (finite(value) ? `${(value * 100).toFixed(1)}%` : '—');

export const count = (value: unknown) => (finite(value) ? value.toLocaleString() : '—');

/** 'YYYY-MM-DD' → 'Nov 23'. Built from the parts so the label never shifts with the time zone. */
export function shortMonthDay(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!match) return date;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
  });
}

/** Whole-number y ticks: about five steps from 0 to at least the highest count. */
export function integerTicks(max: number): number[] {
  const top = Math.max(1, Math.ceil(max));
  const step = Math.max(1, Math.ceil(top / 5));
  const ticks: number[] = [];
  for (let tick = 0; tick < top + step; tick += step) ticks.push(tick);
  return ticks;
}
