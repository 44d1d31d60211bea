/**
 * What CloudFront and API Gateway do in front of the Lambdas, as plain data. The CDK stack builds
 * the distribution and the API stage from these definitions (infra/constructs/site.ts,
 * http-api.ts, infra/stage.ts) and the local server behaves by the very same ones
 * (infra/local/), so a change here changes both. No aws-cdk-lib here: the local server imports it.
 */

/** Requests per second (steady state) and bucket size (burst) of an API Gateway throttle. */
export interface Throttle {
  rateLimit: number;
  burstLimit: number;
}

/**
 * The stage's default route throttle, per deployment stage (docs/security.md#edge-and-api-throttles). API Gateway
 * applies it to each route on its own (the stage's default route settings), unless the route has
 * its own in ROUTE_THROTTLES. Sizing for a million learners, a tenth of them on a given day, each
 * making about 100 calls in a session, spread over a busy 8 hours with a 5x peak:
 * 1e5 * 100 / 28 800 s * 5 ≈ 1 700 rps, so prod allows 2 000 (burst 4 000). Raise with the Lambda
 * concurrency quota. dev is a small ceiling for a stack nobody depends on.
 */
export const STAGE_API_THROTTLES: Record<'dev' | 'prod', Throttle> = {
  prod: { rateLimit: 2000, burstLimit: 4000 },
  dev: { rateLimit: 20, burstLimit: 40 },
};

/**
 * Per-route ceilings (docs/security.md#edge-and-api-throttles): the unauthenticated calls that cost the most (scrypt, email). Sign-in
 * is a few calls per learner per day: 1e5 * 2 / 28 800 * 5 ≈ 35 rps, so 100 leaves room. Restoring
 * a deleted account checks a password like a sign-in but is rare (a learner who deleted the
 * account and changed their mind): the reset calls' 20.
 */
export const ROUTE_THROTTLES: Record<string, Throttle> = {
  'POST /api/auth/login': { rateLimit: 100, burstLimit: 200 },
  'POST /api/auth/verify-2fa': { rateLimit: 100, burstLimit: 200 },
  'POST /api/auth/restore': { rateLimit: 20, burstLimit: 40 },
  'POST /api/auth/restore/verify': { rateLimit: 20, burstLimit: 40 },
  'POST /api/auth/register': { rateLimit: 50, burstLimit: 100 },
  'POST /api/auth/verify-email': { rateLimit: 50, burstLimit: 100 },
  'POST /api/auth/password-reset/request': { rateLimit: 20, burstLimit: 40 },
  'GET /api/auth/password-reset/validate': { rateLimit: 20, burstLimit: 40 },
  'POST /api/auth/password-reset/confirm': { rateLimit: 20, burstLimit: 40 },
  'POST /api/settings/password': { rateLimit: 20, burstLimit: 40 },
};

/** What API Gateway answers a throttled request: its own body, not the API's `{ error }` shape. */
export const THROTTLED_RESPONSE = { status: 429, body: { message: 'Too Many Requests' } };

/** The Content-Security-Policy of the SPA: own scripts only; inline styles because React sets style attributes. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/**
 * The response headers policy of both behaviours. Every header overrides what the origin sent
 * (so the API's own `default-src 'none'` CSP reaches the browser as the SPA's).
 */
export const SECURITY_HEADERS = {
  hstsMaxAgeSeconds: 2 * 365 * 24 * 60 * 60,
  hstsIncludeSubdomains: true,
  contentSecurityPolicy: CONTENT_SECURITY_POLICY,
  frameOption: 'DENY',
  referrerPolicy: 'strict-origin-when-cross-origin',
} as const;

/** The headers CloudFront writes from SECURITY_HEADERS, as it spells them. */
export function securityHeaderValues(policy = SECURITY_HEADERS): Record<string, string> {
  return {
    'Strict-Transport-Security': `max-age=${policy.hstsMaxAgeSeconds}${policy.hstsIncludeSubdomains ? '; includeSubDomains' : ''}`,
    'Content-Security-Policy': policy.contentSecurityPolicy,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': policy.frameOption,
    'Referrer-Policy': policy.referrerPolicy,
  };
}

/**
 * SPA fallback, as a viewer-request function on the S3 behaviour only: any path whose last
 * segment has no file extension is a client route and gets /index.html, except the certificate
 * check (`/certificates`, `/certificates/{code}`), which gets /certificates.html: the same app
 * with the check's link-preview card (web/certificate-check-page.ts). Not CloudFront error
 * responses: those apply to the whole distribution and would turn the API's JSON 403/404
 * (`admin_required`, `not_found` …) into a 200 HTML page.
 */
export const SPA_FALLBACK_FUNCTION = `function handler(event) {
  var request = event.request;
  var segments = request.uri.split('/');
  var last = segments[segments.length - 1];
  var check = segments[1] === 'certificates' && segments.length <= 3;
  if (last.indexOf('.') === -1) request.uri = check ? '/certificates.html' : '/index.html';
  return request;
}`;

/**
 * The CloudFront managed cache policies the site uses, with their ids and whether they cache
 * (and so let CloudFront compress) Gzip and Brotli objects: CachingDisabled caches neither, so
 * CloudFront compresses nothing on a behaviour that uses it.
 */
export const MANAGED_CACHE_POLICIES = {
  CachingOptimized: { id: '658327ea-f89d-4fab-a63d-7e88639e58f6', gzip: true, brotli: true },
  CachingDisabled: { id: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', gzip: false, brotli: false },
} as const;
export type ManagedCachePolicy = keyof typeof MANAGED_CACHE_POLICIES;

export interface SiteBehaviour {
  cachePolicy: ManagedCachePolicy;
  /** The behaviour's "compress objects automatically" switch. */
  compress: boolean;
}

/** The path pattern CloudFront sends to the HTTP API; everything else goes to the S3 bucket. */
export const API_PATH_PATTERN = '/api/*';

/** The distribution's two behaviours: the SPA from S3 (cached, compressed) and the API (uncached). */
export const SITE_BEHAVIOURS: { site: SiteBehaviour; api: SiteBehaviour } = {
  site: { cachePolicy: 'CachingOptimized', compress: true },
  api: { cachePolicy: 'CachingDisabled', compress: true },
};

/**
 * Cache-Control of the site's files (the deployment sets it on the bucket's objects; the local
 * server answers with it). The build's `assets/` have content hashes in their names: cached for
 * a year, never revalidated. Everything else (index.html above all, which names the current
 * assets) is revalidated on every load, so a deploy reaches the next page load.
 */
export const SITE_ASSETS_PREFIX = 'assets/';
export const SITE_CACHE_CONTROL = {
  assets: 'public, max-age=31536000, immutable',
  pages: 'no-cache',
} as const;
