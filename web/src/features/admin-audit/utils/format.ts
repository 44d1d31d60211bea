import { AUDIT_PREVIEW_CHARS, USER_AGENT_PREVIEW_CHARS } from '@shared/constants';

/** JSON preview cut to 160 characters: 157 plus '…' (docs/product.md#9-business-constants-and-limits). */
export function jsonPreview(value: unknown): string {
  if (value === null || value === undefined) return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > AUDIT_PREVIEW_CHARS ? `${text.slice(0, AUDIT_PREVIEW_CHARS - 3)}…` : text;
}

/** The first 64 characters of the user agent (docs/product.md#2-screens-and-routes). */
export const agentPreview = (agent: string | null | undefined) => (agent ? agent.slice(0, USER_AGENT_PREVIEW_CHARS) : '');

export const actorText = (email: string | null | undefined, userId: string | null | undefined) => email || userId || '—';

export function targetText(type: string | null | undefined, id: string | null | undefined): string {
  if (!type && !id) return '—';
  return [type, id ? `#${id}` : ''].filter(Boolean).join(' ');
}
