import { ApiError } from '@/lib/api-client';

/**
 * docs/product.md#8-error-catalogue Admin: a failed call shows the server's error field or 'HTTP {status}'; the named
 * fallback covers failures without an HTTP answer (offline, aborted).
 */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    const { error: code, message } = error.body;
    if (typeof code === 'string' && code) return code;
    if (typeof message === 'string' && message) return message;
    return `HTTP ${error.status}`;
  }
  return fallback;
}

/** Module overrides read the body's `message` first, then `error` (docs/product.md#7-the-calls-it-makes). */
export function overrideErrorText(error: unknown): string {
  if (error instanceof ApiError) {
    const { error: code, message } = error.body;
    if (typeof message === 'string' && message) return message;
    if (typeof code === 'string' && code) return code;
    return `HTTP ${error.status}`;
  }
  return 'Failed to apply override';
}
