import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import pLimit from 'p-limit';
import { THROTTLED_RESPONSE } from '../edge-behaviour';
import { matchRoute, routeKey, type RouteDef, type RouteGroup } from '../../shared/routes';
import { apiThrottle, type ApiThrottles, PROD_THROTTLES } from './api-throttle';
import type { GroupHandler } from './group-handlers';
import { jsonAnswer, type OriginAnswer } from './origin-answer';

/** Hard cap on what the local server reads of a body; the Lambda chain enforces the 64 KB rule. */
const MAX_READ_BYTES = 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<Buffer | 'too_large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_READ_BYTES) return 'too_large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Builds the API Gateway HTTP API (payload 2.0) event that the deployed Lambda would receive. */
export function toApiGatewayEvent(
  req: IncomingMessage,
  url: URL,
  body: Buffer,
  route: RouteDef,
  params: Record<string, string>,
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name === 'cookie' || value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const cookies = req.headers.cookie
    ? req.headers.cookie
        .split(';')
        .map((c) => c.trim())
        .filter(Boolean)
    : undefined;
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: routeKey(route),
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    cookies,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(params).length ? params : undefined,
    body: body.length ? body.toString('utf8') : undefined,
    isBase64Encoded: false,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: url.host,
      domainPrefix: 'local',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, ''),
        userAgent: req.headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: routeKey(route),
      stage: '$default',
      time: new Date(now).toISOString(),
      timeEpoch: now,
    },
  };
}

function lambdaContext(group: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: `career-program-${group}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:career-program-${group}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/career-program-${group}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export interface ApiGatewayOptions {
  handlers: Record<RouteGroup, GroupHandler>;
  /** The stage's and the routes' throttles; default the deployed prod stage's. */
  throttles?: ApiThrottles;
  /** Invocations run at once; default LOCAL_INVOCATIONS_AT_ONCE. */
  invocationsAtOnce?: number;
}

/**
 * Invocations the local API runs at once; the others wait for a free slot before their Lambda
 * starts. Deployed, every concurrent request has a sandbox (and a CPU share) of its own, and a
 * function's timeout counts only its own run. Here every invocation shares one event loop and
 * one DynamoDB Local: 200 at once would each take as long as all 200 together and time out, a
 * failure the cloud would not have. Waiting for a slot is what a sandbox's start costs in the
 * cloud; the run itself is then timed as deployed.
 */
export const LOCAL_INVOCATIONS_AT_ONCE = 16;

/** The local API Gateway: one stage, reached through the local CloudFront or directly. */
export type ApiGateway = (req: IncomingMessage, url: URL) => Promise<OriginAnswer>;

/**
 * The local stand-in for the HTTP API's `$default` stage: the route table's routes (a malformed
 * path, an unknown route or method answered here), its throttles, then the route's group Lambda
 * with the payload 2.0 event. It adds no header of its own: what reaches the Lambda is what the
 * caller sent, as when the execute-api address is called directly.
 */
export function createApiGateway(options: ApiGatewayOptions): ApiGateway {
  const allow = apiThrottle(options.throttles ?? PROD_THROTTLES);
  const slot = pLimit(options.invocationsAtOnce ?? LOCAL_INVOCATIONS_AT_ONCE);
  return async (req, url) => {
    const match = matchRoute(req.method ?? 'GET', url.pathname);
    if (!match.route && match.malformedPath) return jsonAnswer(400, { error: 'invalid_path' });
    if (!match.route) {
      return match.methodNotAllowed ? jsonAnswer(405, { error: 'method_not_allowed' }) : jsonAnswer(404, { error: 'not_found' });
    }
    if (!allow(routeKey(match.route))) return jsonAnswer(THROTTLED_RESPONSE.status, THROTTLED_RESPONSE.body);
    const body = await readBody(req);
    if (body === 'too_large') return jsonAnswer(413, { error: 'payload_too_large' });
    const { route, params } = match;
    // The event is built when the slot is free: its request time is when the Lambda starts.
    const result = await slot(() =>
      options.handlers[route.group](toApiGatewayEvent(req, url, body, route, params), lambdaContext(route.group)),
    );
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(result.headers ?? {})) {
      if (value !== undefined && value !== '') headers[name.toLowerCase()] = String(value);
    }
    if (result.cookies?.length) headers['set-cookie'] = result.cookies;
    return { status: result.statusCode ?? 200, headers, body: Buffer.from(result.body ?? '') };
  };
}
