import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { GroupHandler } from './group-handlers';
import { matchRoute, routeKey, type RouteDef, type RouteGroup } from '../../shared/routes';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

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

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

export interface ApiServerOptions {
  handlers: Record<RouteGroup, GroupHandler>;
  /** Built SPA folder; index.html answers every non-file path (SPA fallback). */
  staticDir?: string;
  /** Dev mode: hands non-API requests to Vite's middleware instead of static files. */
  fallback?: (req: IncomingMessage, res: ServerResponse) => void;
  /** Served at `/__local/config` so the SPA can point to the mail viewer in local mode. */
  localConfig?: { mail_viewer_url: string };
}

/** The local stand-in for CloudFront + API Gateway: `/api/*` → the group Lambdas, the rest → the SPA. */
export function createApiServer(options: ApiServerOptions): Server {
  const staticRoot = options.staticDir ? resolve(options.staticDir) : undefined;
  // The handler answers every failure itself (the catch at its end), so no promise is left to reject.
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  return createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
      if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
        const match = matchRoute(req.method ?? 'GET', url.pathname);
        if (!match.route && match.malformedPath) {
          sendJson(res, 400, { error: 'invalid_path' });
          return;
        }
        if (!match.route) {
          sendJson(res, match.methodNotAllowed ? 405 : 404, { error: match.methodNotAllowed ? 'method_not_allowed' : 'not_found' });
          return;
        }
        const body = await readBody(req);
        if (body === 'too_large') {
          sendJson(res, 413, { error: 'payload_too_large' });
          return;
        }
        const event = toApiGatewayEvent(req, url, body, match.route, match.params);
        const result = await options.handlers[match.route.group](event, lambdaContext(match.route.group));
        const headers: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(result.headers ?? {})) {
          if (value !== undefined && value !== '') headers[name] = String(value);
        }
        if (result.cookies?.length) headers['Set-Cookie'] = result.cookies;
        res.writeHead(result.statusCode ?? 200, headers);
        res.end(result.body ?? '');
        return;
      }
      if (url.pathname === '/__local/config' && options.localConfig) {
        sendJson(res, 200, options.localConfig);
        return;
      }
      if (options.fallback) {
        options.fallback(req, res);
        return;
      }
      serveStatic(staticRoot, url.pathname, res);
    } catch (error) {
      console.error('local server error', error);
      if (!res.headersSent) sendJson(res, 500, { error: 'internal_error' });
      else res.end();
    }
  });
}

function serveStatic(root: string | undefined, pathname: string, res: ServerResponse) {
  if (!root || !existsSync(join(root, 'index.html'))) {
    res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('The web app is not built yet: run `npm run build:web`.');
    return;
  }
  const requested = normalize(join(root, decodeURIComponent(pathname)));
  const inside = requested.startsWith(root);
  const isFile = inside && existsSync(requested) && statSync(requested).isFile();
  const file = isFile ? requested : join(root, 'index.html');
  const hashedAsset = isFile && requested.includes(`${join(root, 'assets')}`);
  res.writeHead(200, {
    'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
    'Cache-Control': hashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  });
  createReadStream(file).pipe(res);
}
