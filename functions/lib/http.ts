import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import httpRouterHandler from '@middy/http-router';
import httpSecurityHeaders from '@middy/http-security-headers';
import { createError } from '@middy/util';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { $ZodType } from 'zod/v4/core';
import { safeParse } from 'zod/mini';
import { FIELD_ERROR_CODES } from '../../shared/key-values';
import { routeKey, routesOfGroup, type RouteDef, type RouteGroup } from '../../shared/routes';
import { appUrl } from './app-url';
import { firstRefusalThisHour } from './audit-once';
import { writeAudit } from './audit';
import { config } from './config';
import { capacityMeter } from './db';
import { readSecretsDuringInit } from './init-reads';
import { ApiError, forbidden, notFound, unauthorized } from './errors';
import { logger } from './logger';
import { metrics } from './metrics';
import { isTransientAwsError } from './retry';
import { fromOurCloudFront } from './origin-verify';
import { resolveSession, withSignedInHint, type ActiveSession } from './session';

/** Request bodies above this are refused with 413 before parsing. */
export const MAX_BODY_BYTES = 64 * 1024;
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface ApiRequest<Body = unknown, Query = Record<string, string | undefined>> {
  body: Body;
  query: Query;
  params: Record<string, string>;
  headers: Record<string, string | undefined>;
  /** Present on `session` and `admin` routes; on a `public` route with `optionalSession` when a valid cookie came along. */
  session?: ActiveSession;
  ip: string;
  userAgent: string;
  requestId: string;
  /** The Cookie header (HTTP API payload v2 passes cookies apart from the headers). */
  cookies?: string;
}

export interface ApiResult {
  status?: number;
  body?: unknown;
  /** Set-Cookie values. */
  cookies?: string[];
  headers?: Record<string, string>;
  /** A body sent as it is (a CSV file), instead of `body` as JSON; set its Content-Type in `headers`. */
  rawBody?: string;
}

// `any` by default: a group's table holds routes of different body types, and a handler typed for one
// body is not assignable to one for `unknown` (parameters are contravariant).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface RouteImpl<Body = any, Query = any> {
  /** A public route that uses the session when there is one (logout). Others skip the lookup. */
  optionalSession?: boolean;
  /**
   * Also accepts an `application/x-www-form-urlencoded` body (parsed into an object of strings).
   * Only for the one-click unsubscribe (RFC 8058): mail providers POST a form body. Reasoned
   * exception to the JSON-only CSRF rule in docs/security.md.
   */
  formBody?: boolean;
  body?: $ZodType<Body>;
  query?: $ZodType<Query>;
  /**
   * The path parameters' rules (shared/key-values.ts): a parameter outside its rule names
   * nothing, so the route answers 404 `not_found` before any read.
   */
  params?: $ZodType<Record<string, string>>;
  handler: (request: ApiRequest<Body, Query>) => Promise<ApiResult>;
}

/** Typing helper so a route's handler sees its schemas' types. */
export const defineRoute = <Body = unknown, Query = Record<string, string | undefined>>(
  impl: RouteImpl<Body, Query>,
): RouteImpl<Body, Query> => impl;

type Event = APIGatewayProxyEventV2 & { body?: unknown };
interface RequestState {
  route?: RouteDef;
  session?: ActiveSession;
}
const requestState = new WeakMap<object, RequestState>();
/** Requests that passed the origin check in the cloud: only their viewer-address header is trusted. */
const viaCloudFront = new WeakSet<object>();

/**
 * The origin check (docs/security.md#the-api-is-reachable-through-cloudfront-only): before anything else, refuse every request that did not come through
 * our CloudFront distribution (no or wrong origin-verify header): the API's own execute-api
 * address answers nothing but 403. Locally the same against the local server's stand-in.
 */
const originGuard = (): middy.MiddlewareObj<Event> => ({
  before: async ({ event }) => {
    if (!(await fromOurCloudFront(event.headers))) throw forbidden('forbidden');
    viaCloudFront.add(event);
  },
});

/**
 * The site's own origin, or one it was served from before a move to its own domain (during the
 * move only, PREVIOUS_SITE_ORIGINS: docs/runbook.md#custom-domain).
 */
async function isSiteOrigin(origin: string): Promise<boolean> {
  return origin === new URL(await appUrl()).origin || config().previousSiteOrigins.includes(origin);
}

const FORM = /^application\/x-www-form-urlencoded\b/i;

/**
 * Body size limit, CSRF rules (JSON only, same Origin) and an empty body read as `{}`. Routes in
 * `formRoutes` also take a form body (read into an object of strings here): a form is what a
 * cross-site page can send without a preflight, so only a route that needs no session and
 * authorises by a token in its URL may accept one (docs/security.md, one-click unsubscribe).
 */
const requestGuard = (formRoutes: Set<string> = new Set()): middy.MiddlewareObj<Event> => ({
  before: async ({ event }) => {
    const method = event.requestContext.http.method;
    const raw = typeof event.body === 'string' ? event.body : '';
    const size = event.isBase64Encoded ? Math.floor((raw.length * 3) / 4) : Buffer.byteLength(raw);
    if (size > MAX_BODY_BYTES) throw new ApiError(413, 'payload_too_large');
    if (!STATE_CHANGING.has(method)) return;
    const origin = event.headers?.origin;
    if (origin && !(await isSiteOrigin(origin))) throw forbidden('bad_origin');
    if (method === 'DELETE' && !raw) return;
    const contentType = event.headers?.['content-type'] ?? '';
    if (formRoutes.has(event.routeKey) && FORM.test(contentType)) {
      const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
      (event as { body?: unknown }).body = Object.fromEntries(new URLSearchParams(text));
      return;
    }
    if (!/^application\/json\b/i.test(contentType)) throw new ApiError(415, 'unsupported_media_type');
    if (!raw.trim()) event.body = '{}';
  },
});

/** Runs the JSON body parser only where a body is expected. */
const jsonBody = (): middy.MiddlewareObj<Event> => {
  const parser = httpJsonBodyParser();
  return {
    before: async (request) => {
      const method = request.event.requestContext.http.method;
      // undefined: no body; an object: a form body the request guard already read
      if (!STATE_CHANGING.has(method) || request.event.body === undefined || typeof request.event.body === 'object') return;
      await parser.before!(request as never);
    },
  };
};

/** Finds the route in the table, then enforces its session and role rule. */
const accessControl = (routes: Map<string, RouteDef>, optionalSession: Set<string>): middy.MiddlewareObj<Event> => ({
  before: async ({ event }) => {
    const route = routes.get(event.routeKey);
    const state: RequestState = { route };
    requestState.set(event, state);
    if (!route) return; // the router answers 404
    // Public routes (register, login, health…) do not read the account unless they use it.
    if (route.access === 'public' && !optionalSession.has(event.routeKey)) return;
    // HTTP API payload v2 moves cookies out of the headers into `event.cookies`.
    const session = await resolveSession(event.cookies?.join('; ') ?? event.headers?.cookie);
    state.session = session;
    if (route.access === 'public') return;
    if (!session) throw unauthorized();
    if (route.access === 'admin' && session.user.role !== 'admin') {
      // A learner at an admin route is a security event (docs/security.md#security-events-in-the-audit-log),
      // audited once per hour and account (the rest are counted).
      if (await firstRefusalThisHour('security.admin_required', session.user.id))
        await writeAudit({
          action: 'security.admin_required',
          actor: { id: session.user.id, email: session.user.email },
          entityType: 'route',
          entityId: event.routeKey,
          ip: clientIp(event),
          userAgent: event.headers?.['user-agent'] ?? '',
        });
      throw forbidden('admin_required');
    }
  },
});

/** Maps every error to `{ error: code }`; unexpected ones are logged and answered 500 without internals. */
const errorMapper = (): middy.MiddlewareObj<Event> => ({
  onError: (request) => {
    const error = request.error as (Error & { statusCode?: number; cause?: { package?: string } }) | null;
    let mapped: ApiError;
    if (error instanceof ApiError) mapped = error;
    else if (error?.statusCode === 404 && error.cause?.package === '@middy/http-router') mapped = new ApiError(404, 'not_found');
    else if (error?.statusCode === 415 && /JSON/.test(error.message)) mapped = new ApiError(400, 'invalid_json');
    else if (error?.statusCode === 415) mapped = new ApiError(415, 'unsupported_media_type');
    else if (error && isTransientAwsError(error)) {
      // Throttling or write conflicts that outlived the SDK's and withWriteRetries' jittered
      // retries (functions/lib/retry.ts): tell the client to come back shortly, not "crashed".
      logger.warn('AWS throttling or write conflict after retries', { error_name: error.name });
      mapped = new ApiError(503, 'unavailable', {}, { 'Retry-After': '2' });
    } else {
      logger.error('unexpected error', { error: error as Error });
      mapped = new ApiError(500, 'internal_error');
    }
    if (mapped.statusCode >= 500 && error instanceof ApiError) logger.error('server error', { code: mapped.code });
    // middy's createError reads only `expose` from its options: the headers (e.g. Retry-After)
    // must be set on the error itself for http-error-handler to send them. An error answer is
    // about one request and one session: no cache may keep it, as no cache keeps a success.
    request.error = Object.assign(createError(mapped.statusCode, JSON.stringify(mapped.toBody()), { expose: true }), {
      headers: { 'Cache-Control': 'no-store', ...mapped.headers },
    });
  },
});

/**
 * Checks a body or query against the route's schema (zod/mini: a fraction of classic zod's
 * weight in every Lambda bundle, docs/lean-builds.md); a mismatch is the client's: 400
 * `invalid_request` with the fields at fault, or the product's own code for a field whose rule
 * has one (an email: `invalid_email`, shared/key-values.ts).
 */
function validate<T>(schema: $ZodType<T>, value: unknown): T {
  const result = safeParse(schema, value);
  if (result.success) return result.data;
  const own = result.error.issues.find((issue) => FIELD_ERROR_CODES.includes(issue.message));
  if (own) throw new ApiError(400, own.message);
  const fields = [...new Set(result.error.issues.map((issue) => String(issue.path[0] ?? '')).filter(Boolean))];
  throw new ApiError(400, 'invalid_request', { fields });
}

/** Logs one line per request with its status and DynamoDB consumed capacity. */
const accessLog = (): middy.MiddlewareObj<Event, APIGatewayProxyStructuredResultV2> => {
  const done = (request: middy.Request<Event, APIGatewayProxyStructuredResultV2>) => {
    logger.info('request', {
      route: request.event.routeKey,
      status: request.response?.statusCode,
      consumed_capacity: capacityMeter.snapshot(),
    });
  };
  return {
    before: ({ event }) => {
      capacityMeter.reset();
      logger.appendKeys({ request_id: event.requestContext?.requestId });
    },
    after: (request) => done(request),
    onError: (request) => {
      // runs before the error is rendered; log the mapped status from the error itself
      logger.info('request failed', {
        route: request.event.routeKey,
        status: (request.error as { statusCode?: number } | null)?.statusCode,
        consumed_capacity: capacityMeter.snapshot(),
      });
    },
  };
};

function toResponse(result: ApiResult, renewedCookie?: string): APIGatewayProxyStructuredResultV2 {
  const cookies = [...(result.cookies ?? [])];
  if (renewedCookie && !cookies.some((c) => c.startsWith('__Host-session='))) cookies.push(renewedCookie);
  return {
    statusCode: result.status ?? 200,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...result.headers },
    body: result.rawBody ?? JSON.stringify(result.body ?? { ok: true }),
    ...(cookies.length ? { cookies: withSignedInHint(cookies) } : {}),
  };
}

/**
 * The viewer's address. Behind CloudFront the API sees an edge address as the source IP;
 * CloudFront puts the viewer's `ip:port` in CloudFront-Viewer-Address (it overwrites any value
 * a client sends). The header is trusted only on a request that passed the origin check (docs/security.md#the-api-is-reachable-through-cloudfront-only):
 * anyone calling the API directly could write any address into it.
 */
export function clientIp(event: Pick<Event, 'headers' | 'requestContext'>): string {
  const viewer = config().stage === 'cloud' && viaCloudFront.has(event) ? event.headers?.['cloudfront-viewer-address'] : undefined;
  if (viewer && viewer.lastIndexOf(':') > 0) return viewer.slice(0, viewer.lastIndexOf(':'));
  return event.requestContext.http.sourceIp ?? '';
}

/**
 * No id, slug or code of this API is longer, or holds a control character or line break. Such a
 * path parameter names nothing: 404 before any read, as DynamoDB would refuse a key that long
 * with a 500, and IAM's key patterns (`USER#*`) do not match a line break (docs/api.md#7-fuzzing).
 */
export const MAX_PATH_PARAM_LENGTH = 128;
// eslint-disable-next-line no-control-regex -- the very characters that name nothing
const NAMES_NOTHING = /[\u0000-\u001f\u007f\u2028\u2029]/;
const namesNothing = (value: string | undefined) => (value ?? '').length > MAX_PATH_PARAM_LENGTH || NAMES_NOTHING.test(value ?? '');

function adapt(impl: RouteImpl) {
  return async (event: Event): Promise<APIGatewayProxyStructuredResultV2> => {
    const state = requestState.get(event) ?? {};
    const query = { ...(event.queryStringParameters ?? {}) };
    if (Object.values(event.pathParameters ?? {}).some(namesNothing)) throw notFound();
    if (impl.params && !safeParse(impl.params, event.pathParameters ?? {}).success) throw notFound();
    const request: ApiRequest<unknown, unknown> = {
      body: impl.body ? validate(impl.body, event.body ?? {}) : event.body,
      query: impl.query ? validate(impl.query, query) : query,
      params: (event.pathParameters ?? {}) as Record<string, string>,
      headers: event.headers ?? {},
      session: state.session,
      ip: clientIp(event),
      userAgent: event.headers?.['user-agent'] ?? event.requestContext.http.userAgent ?? '',
      requestId: event.requestContext.requestId ?? '',
      cookies: event.cookies?.join('; ') ?? event.headers?.cookie,
    };
    return toResponse(await impl.handler(request), state.session?.renewedCookie);
  };
}

const notImplemented: RouteImpl = {
  handler: () => Promise.reject(new ApiError(501, 'not_implemented')),
};

/**
 * The standard chain, written once, for one endpoint group. `impls` maps each of the group's
 * route keys (`GET /api/auth/me`) to its implementation; a key that is not in the route table is
 * a startup error. A table route with no implementation yet answers 501 `not_implemented`.
 */
export function createGroupHandler(group: RouteGroup, impls: Record<string, RouteImpl>) {
  // Read and check the environment at cold start; in the cloud the origin check needs its secret.
  if (config().stage === 'cloud' && !config().originSecretArn) throw new Error('ORIGIN_SECRET_ARN is required in the cloud');
  void readSecretsDuringInit();
  const routes = routesOfGroup(group);
  const byKey = new Map(routes.map((route) => [routeKey(route), route]));
  for (const key of Object.keys(impls)) if (!byKey.has(key)) throw new Error(`route ${key} is not in the route table`);

  const router = httpRouterHandler(
    routes.map((route) => ({ method: route.method, path: route.path, handler: adapt(impls[routeKey(route)] ?? notImplemented) })),
  );

  // Middy runs `before` in this order and `onError`/`after` in reverse: the security headers
  // are added last of all, after the error handler has rendered the mapped error.
  // `routes`: the group's implementations by route key, as its module gave them; the OpenAPI
  // generator reads their zod schemas there (infra/ops/generate-openapi.ts).
  const handler = middy<Event, APIGatewayProxyStructuredResultV2, Error, Context>()
    .use(httpSecurityHeaders({ contentSecurityPolicy: { 'default-src': "'none'", 'frame-ancestors': "'none'" } }))
    .use(httpErrorHandler({ logger: false }))
    .use(errorMapper())
    .use(injectLambdaContext(logger, { resetKeys: true }))
    // Flushes the business metrics of this request (functions/lib/metrics.ts), errors included.
    .use(logMetrics(metrics))
    .use(accessLog())
    .use(httpHeaderNormalizer())
    .use(originGuard())
    .use(requestGuard(new Set(Object.keys(impls).filter((key) => impls[key].formBody))))
    .use(jsonBody())
    .use(accessControl(byKey, new Set(Object.keys(impls).filter((key) => impls[key].optionalSession))))
    .handler(router);
  return Object.assign(handler, { routes: impls as Readonly<Record<string, RouteImpl>> });
}
