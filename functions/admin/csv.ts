/**
 * CSV for the admin exports (docs/product.md "CSV exports"): RFC 4180 (comma-separated, CRLF
 * line ends, a field with a comma, quote, CR or LF is quoted and its quotes doubled) and
 * neutralised against formula injection (OWASP "CSV injection"): a spreadsheet runs a cell that
 * starts with `=`, `+`, `-` or `@` (and some also after a leading tab or CR) as a formula, so
 * such a cell gets a leading `'`, which the spreadsheet shows as text. Learners choose their own
 * names, and an audit entry can hold typed text: both reach the admin's spreadsheet.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export type CsvValue = string | number | boolean | null | undefined;

/** One field: neutralised, then quoted when RFC 4180 needs it. Numbers are written as they are. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF-terminated. */
export const csvRow = (values: CsvValue[]): string => `${values.map(csvField).join(',')}\r\n`;
