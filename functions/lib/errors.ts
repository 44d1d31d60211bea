/**
 * Typed errors. Domain code throws these; the one error mapper in the middy chain turns them
 * into `{ "error": "<code>", ...details }` responses. Anything else becomes a logged 500.
 */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(statusCode: number, code: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(code);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  toBody(): Record<string, unknown> {
    return { error: this.code, ...this.details };
  }
}

export const badRequest = (code: string, details?: Record<string, unknown>) => new ApiError(400, code, details);
export const unauthorized = (code = 'unauthorized', details?: Record<string, unknown>) => new ApiError(401, code, details);
export const forbidden = (code = 'forbidden', details?: Record<string, unknown>) => new ApiError(403, code, details);
export const notFound = (code = 'not_found', details?: Record<string, unknown>) => new ApiError(404, code, details);
export const conflict = (code: string, details?: Record<string, unknown>) => new ApiError(409, code, details);
export const throttled = (retryAfterSeconds?: number) =>
  new ApiError(
    429,
    'throttled',
    retryAfterSeconds ? { retry_after: retryAfterSeconds } : {},
    retryAfterSeconds ? { 'Retry-After': String(retryAfterSeconds) } : {},
  );
