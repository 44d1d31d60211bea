import { AUDIT_PREVIEW_CHARS } from '@shared/constants';

/** JSON preview cut to 160 characters: 157 plus '…' (docs/product.md#9-business-constants-and-limits). */
export function jsonPreview(value: unknown): string {
  if (value === null || value === undefined) return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > AUDIT_PREVIEW_CHARS ? `${text.slice(0, AUDIT_PREVIEW_CHARS - 3)}…` : text;
}
