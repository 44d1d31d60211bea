import { describe, expect, it } from 'vitest';
import {
  formatCount,
  formatCountAtLeast,
  formatDate,
  formatDateTime,
  formatDateTimeMedium,
  formatFractionPercent,
  formatLongDate,
  formatMonthDay,
  formatOneDecimal,
  formatPercent,
  parseDate,
} from './format';

describe('parseDate', () => {
  it('reads a bare day as local midnight, so it never shifts a day', () => {
    const date = parseDate('2026-03-04');
    expect([date?.getFullYear(), date?.getMonth(), date?.getDate(), date?.getHours()]).toEqual([2026, 2, 4, 0]);
  });

  it('reads an ISO timestamp as that instant', () => {
    expect(parseDate('2026-03-04T10:15:00Z')?.toISOString()).toBe('2026-03-04T10:15:00.000Z');
  });

  it('answers null for absent or unparseable values', () => {
    expect(parseDate(undefined)).toBeNull();
    expect(parseDate('')).toBeNull();
    expect(parseDate('soon')).toBeNull();
  });
});

describe('dates', () => {
  const iso = '2026-03-04T10:15:00Z';

  it('formats in the reader locale', () => {
    expect(formatDate(iso)).toBe(new Date(iso).toLocaleDateString());
    expect(formatDateTime(iso)).toBe(new Date(iso).toLocaleString());
    expect(formatDateTimeMedium(iso)).toBe(new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }));
    expect(formatLongDate(iso)).toBe(new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' }));
  });

  it('writes a bare day as that calendar day', () => {
    expect(formatDate('2026-03-04')).toBe(new Date(2026, 2, 4).toLocaleDateString());
    expect(formatLongDate('2026-03-04')).toBe(
      new Date(2026, 2, 4).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' }),
    );
  });

  it('labels chart days in English, by calendar day', () => {
    expect(formatMonthDay('2025-11-23')).toBe('Nov 23');
    expect(formatMonthDay('2026-01-05')).toBe('Jan 5');
    expect(formatMonthDay('2026-01-05T23:30:00Z')).toBe('Jan 5');
  });

  it("shows '—' when absent and an unparseable value as sent", () => {
    for (const format of [formatDate, formatDateTime, formatDateTimeMedium, formatLongDate, formatMonthDay]) {
      expect(format(null)).toBe('—');
      expect(format(undefined)).toBe('—');
      expect(format('')).toBe('—');
      expect(format('not a date')).toBe('not a date');
    }
  });
});

describe('numbers', () => {
  it('writes one decimal', () => {
    expect(formatOneDecimal(12.345)).toBe('12.3');
    expect(formatOneDecimal(0)).toBe('0.0');
    expect(formatPercent(12.25)).toBe('12.3%');
    expect(formatPercent(100)).toBe('100.0%');
    expect(formatFractionPercent(0.125)).toBe('12.5%');
    expect(formatFractionPercent(0)).toBe('0.0%');
  });

  it('writes counts with separators', () => {
    expect(formatCount(1234567)).toBe((1234567).toLocaleString());
    expect(formatCount(0)).toBe('0');
    expect(formatCountAtLeast(10000)).toBe('10,000+');
  });

  it("shows '—' for anything that is not a finite number", () => {
    for (const format of [formatOneDecimal, formatPercent, formatFractionPercent, formatCount]) {
      for (const value of [undefined, null, Number.NaN, Number.POSITIVE_INFINITY, '12']) expect(format(value)).toBe('—');
    }
  });
});

/** format.ts, the browser's time zones beside it, and the learner dashboard's one percent text (kept out of it for the first-load budget, see percent.ts). */
const ALLOWED = new Set(['utils/format.ts', 'utils/time-zones.ts', 'features/program/utils/percent.ts']);

describe('the one formatting module', () => {
  it('is the only web source that formats dates and numbers', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const nodePath = await import('node:path');
    const join = (...parts: string[]) => nodePath.join(...parts);
    const relative = (from: string, to: string) => nodePath.relative(from, to);
    const src = join(import.meta.dirname, '..');
    const files = (readdirSync(src, { recursive: true }) as string[]).filter(
      (file) => /\.(ts|tsx)$/.test(file) && !/\.test\.tsx?$/.test(file),
    );
    const offenders = files
      .map((file) => join(src, file))
      .filter(
        (path) => !ALLOWED.has(relative(src, path)) && /toLocale(Date|Time)?String|Intl\.|toFixed\(/.test(readFileSync(path, 'utf8')),
      );
    expect(offenders.map((path) => relative(src, path))).toEqual([]);
  });
});
