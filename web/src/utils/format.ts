/**
 * Every date and number the screens show, formatted in one place. Absent values read '—'; a
 * date the browser cannot parse is shown as sent rather than hidden. A bare 'YYYY-MM-DD' is
 * read as a local calendar day, so it never shifts by one in a time zone west of UTC.
 */
export const EMPTY = '—';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** An ISO timestamp, or a 'YYYY-MM-DD' day as local midnight; null when absent or unparseable. */
export function parseDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const day = DATE_ONLY.exec(value);
  const date = day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function withDate(value: string | null | undefined, format: (date: Date) => string): string {
  if (!value) return EMPTY;
  const date = parseDate(value);
  return date ? format(date) : value;
}

/** The reader's short local date ('11/23/2026'). */
export const formatDate = (value: string | null | undefined) => withDate(value, (date) => date.toLocaleDateString());

/** The reader's local date and time ('11/23/2026, 2:05:00 PM'). */
export const formatDateTime = (value: string | null | undefined) => withDate(value, (date) => date.toLocaleString());

/** A date and time in words, to the minute ('Nov 23, 2026, 2:05 PM'): sessions, passkeys. */
export const formatDateTimeMedium = (value: string | null | undefined) =>
  withDate(value, (date) => date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }));

/** A date written out in the reader's language ('March 4, 2026'): certificates, deletion notice. */
export const formatLongDate = (value: string | null | undefined) =>
  withDate(value, (date) => date.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' }));

/** A chart label, 'YYYY-MM-DD' → 'Nov 23' (English, as the rest of the console). */
export const formatMonthDay = (value: string | null | undefined) =>
  withDate(value?.replace(/^(\d{4}-\d{2}-\d{2}).*$/, '$1'), (date) => date.toLocaleDateString('en-US', { month: 'short', day: 'numeric' }));

/** One decimal ('12.5'), as completion figures show. */
export const formatOneDecimal = (value: unknown) => (finite(value) ? value.toFixed(1) : EMPTY);

/** A value already in percent, one decimal ('12.5%'). */
export const formatPercent = (value: unknown) => (finite(value) ? `${value.toFixed(1)}%` : EMPTY);

/** A 0–1 fraction as a percent, one decimal (0.125 → '12.5%'). */
export const formatFractionPercent = (value: unknown) => (finite(value) ? formatPercent(value * 100) : EMPTY);

/** A count with the reader's thousands separators ('1,234'). */
export const formatCount = (value: unknown) => (finite(value) ? value.toLocaleString() : EMPTY);

/** A count that is a lower bound, English separators and a plus ('10,000+'). */
/** A whole count with thousands separators, the same in every browser ("12,345"). */
export const formatWholeCount = (value: number) => value.toLocaleString('en-US');
export const formatCountAtLeast = (value: number) => `${formatWholeCount(value)}+`;
