import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { ORIGIN_VERIFY_HEADER } from '../../shared/origin-verify';
import { API_PATH_PATTERN, securityHeaderValues, SITE_BEHAVIOURS } from '../edge-behaviour';
import type { ApiGateway } from './api-gateway';
import { registerLocalExportStore } from '../../functions/lib/export-objects';
import { edgeCompression } from './edge-compression';
import { createLocalExportFiles, LOCAL_EXPORT_PATH } from './export-files';
import { jsonAnswer, type OriginAnswer, sendAnswer } from './origin-answer';
import { withHostCheck } from './host-check';
import { getObject } from './s3-origin';
import { viewerRequestFunction } from './viewer-request';

export interface ApiServerOptions {
  /** The local API Gateway (infra/local/api-gateway.ts) that `/api/*` goes to. */
  api: ApiGateway;
  /**
   * The value sent as the origin-verify header on every `/api/*` request, over any value the
   * viewer sent, as the distribution's origin custom header does. Unset: the header is removed.
   */
  originSecret?: string;
  /** Built SPA folder: the site bucket's objects. */
  staticDir?: string;
  /** Dev mode: hands non-API requests to Vite's middleware instead of the bucket. */
  fallback?: (req: IncomingMessage, res: ServerResponse) => void;
  /** Served at `/__local/config` so the SPA can point to the mail viewer in local mode. */
  localConfig?: { mail_viewer_url: string };
  /** The server listens beyond loopback (HOST widened): IP-literal Host headers are answered too (host-check.ts). */
  hostWidened?: boolean;
}

/** Whether a path matches a CloudFront path pattern (`*` any characters, `?` exactly one; case-sensitive). */
export function matchesPathPattern(pattern: string, path: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`).test(path);
}

/**
 * The local stand-in for the CloudFront distribution (infra/constructs/site.ts, from the same
 * definitions in infra/edge-behaviour.ts): `/api/*` to the API with the origin-verify header,
 * everything else through the SPA fallback function to the bucket; on both, the behaviour's
 * compression and the security headers over whatever the origin sent. It also stands in for the
 * export bucket's presigned links (export-files.ts): the files its functions write are served
 * once under LOCAL_EXPORT_PATH.
 */
export function createApiServer(options: ApiServerOptions): Server {
  const staticRoot = options.staticDir ? resolve(options.staticDir) : undefined;
  const viewerRequest = viewerRequestFunction();
  const compress = edgeCompression();
  const securityHeaders = Object.fromEntries(Object.entries(securityHeaderValues()).map(([name, value]) => [name.toLowerCase(), value]));
  const exportFiles = createLocalExportFiles();
  registerLocalExportStore(exportFiles.store);

  const toApi = (req: IncomingMessage, url: URL) => {
    if (options.originSecret) req.headers[ORIGIN_VERIFY_HEADER] = options.originSecret;
    else delete req.headers[ORIGIN_VERIFY_HEADER];
    return options.api(req, url);
  };
  const toBucket = (req: IncomingMessage, url: URL): Promise<OriginAnswer> => {
    if (!staticRoot || !existsSync(join(staticRoot, 'index.html'))) {
      const text = 'The web app is not built yet: run `npm run build:web`.';
      return Promise.resolve({ status: 503, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from(text) });
    }
    return getObject(staticRoot, viewerRequest(req.method ?? 'GET', url.pathname));
  };

  return serve(options.hostWidened, async (req, res, url) => {
    const isApi = matchesPathPattern(API_PATH_PATTERN, url.pathname);
    if (!isApi && url.pathname === '/__local/config' && options.localConfig) {
      sendAnswer(res, jsonAnswer(200, options.localConfig));
      return;
    }
    const isExport = !isApi && req.method === 'GET' && url.pathname.startsWith(LOCAL_EXPORT_PATH);
    // Vite serves its own inline scripts in dev: the SPA's policy would refuse them.
    if (!isApi && !isExport && options.fallback) {
      options.fallback(req, res);
      return;
    }
    const answer = isApi ? await toApi(req, url) : isExport ? await exportFiles.serveOnce(url.pathname) : await toBucket(req, url);
    const viewer = { httpVersion: req.httpVersion, acceptEncoding: req.headers['accept-encoding'] };
    const compressed = await compress(viewer, answer, isApi ? SITE_BEHAVIOURS.api : SITE_BEHAVIOURS.site);
    sendAnswer(res, { ...compressed, headers: { ...compressed.headers, ...securityHeaders } });
  });
}

/** The API's own address, as execute-api is in the cloud: API Gateway alone, no CloudFront in front. */
export function createDirectApiServer(api: ApiGateway, hostWidened = false): Server {
  return serve(hostWidened, async (req, res, url) => sendAnswer(res, await api(req, url)));
}

/**
 * An HTTP server that answers only requests naming this machine as Host (host-check.ts) and whose
 * handler's failures answer 500 `internal_error` (none is left to reject).
 */
function serve(hostWidened: boolean | undefined, handle: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>): Server {
  return createServer(
    withHostCheck((req, res) => {
      handle(req, res, new URL(req.url ?? '/', `http://${req.headers.host}`)).catch((error: unknown) => {
        console.error('local server error', error);
        if (!res.headersSent) sendAnswer(res, jsonAnswer(500, { error: 'internal_error' }));
        else res.end();
      });
    }, hostWidened),
  );
}
