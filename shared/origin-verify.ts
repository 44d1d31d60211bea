/**
 * The origin check (docs/security.md#the-api-is-reachable-through-cloudfront-only): CloudFront adds this header, holding a secret from Secrets Manager, to
 * every request it forwards to the API; the API refuses any request without it before doing
 * anything else. So the API is reachable through CloudFront alone, and only then is the
 * CloudFront-Viewer-Address header (the client IP) trusted.
 */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';
