import { AUDIT_PREVIEW_CHARS } from '../../../../../shared/constants';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses an ISO timestamp; a bare 'YYYY-MM-DD' is read as a local date so it never shifts a day. */
function parse(value: string | null | undefined): Date | null {
  if (!value) return null;
  const dateOnly = DATE_ONLY.exec(value);
  const date = dateOnly ? new Date(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3])) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Local date, or '—' when absent. Unparseable values are shown as sent rather than hidden. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  return parse(value)?.toLocaleDateString() ?? value;
}

export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  return parse(value)?.toLocaleString() ?? value;
}

/** One decimal (docs/product.md#2-screens-and-routes "Completion % (one decimal)"). */
export function formatOneDecimal(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(1) : '—';
}

/** JSON preview cut to 160 characters: 157 plus '…' (docs/product.md#9-business-constants-and-limits). */
export function jsonPreview(value: unknown): string {
  if (value === null || value === undefined) return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > AUDIT_PREVIEW_CHARS ? `${text.slice(0, AUDIT_PREVIEW_CHARS - 3)}…` : text;
}
