import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ORIGIN_VERIFY_HEADER } from '../../shared/origin-verify';
import { CONTENT_SECURITY_POLICY } from '../edge-behaviour';
import { createApiGateway } from './api-gateway';
import { createApiServer, createDirectApiServer, matchesPathPattern } from './api-server';
import type { GroupHandler } from './group-handlers';
import { rawGet } from '../../test/helpers/raw-get';

/** The local CloudFront and API Gateway in front of stand-in Lambdas and a built site folder. */
const handler = vi.fn<GroupHandler>(() => Promise.resolve({ statusCode: 200, body: '{}' }));
const handlers = { auth: handler, passkeys: handler, learner: handler, admin: handler };
const ORIGIN_SECRET = 'local-origin-secret-local-origin-secret';

// A site folder and, beside it, a sibling whose name starts with the site folder's name.
const parent = mkdtempSync(join(tmpdir(), 'edge-'));
const site = join(parent, 'dist');
mkdirSync(join(site, 'assets'), { recursive: true });
mkdirSync(join(parent, 'dist-x'));
writeFileSync(join(site, 'index.html'), '<!doctype html><title>app</title>');
writeFileSync(join(site, 'robots.txt'), 'User-agent: *\nAllow: /\n');
writeFileSync(join(site, 'assets', 'app-1a2b.js'), `console.log(${JSON.stringify('learn '.repeat(400))});`);
writeFileSync(join(parent, 'dist-x', 'secret.txt'), 'not part of the site');

const api = createApiGateway({
  handlers,
  throttles: { stage: { rateLimit: 1000, burstLimit: 1000 }, routes: { 'GET /api/auth/me': { rateLimit: 1, burstLimit: 2 } } },
});
const servers: Record<'front' | 'direct' | 'bare', Server> = {
  front: createApiServer({ api, originSecret: ORIGIN_SECRET, staticDir: site }),
  direct: createDirectApiServer(api),
  bare: createApiServer({ api }),
};
const urls: Record<keyof typeof servers, string> = { front: '', direct: '', bare: '' };

beforeAll(async () => {
  for (const [name, server] of Object.entries(servers) as Array<[keyof typeof servers, Server]>) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    urls[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
});
afterAll(() => Promise.all(Object.values(servers).map((server) => new Promise((resolve) => server.close(resolve)))));
beforeEach(() => handler.mockClear());

const sentHeader = () => handler.mock.calls[0][0].headers[ORIGIN_VERIFY_HEADER];

describe('the local API Gateway', () => {
  it.each([
    ['GET', '/api/modules/%'],
    ['GET', '/api/modules/%E0%A4%A'],
    ['POST', '/api/admin/users/%/unlock'],
    ['PUT', '/api/modules/intro/tasks/%zz'],
  ])('answers 400 invalid_path to %s %s without calling a handler', async (method, path) => {
    const response = await fetch(`${urls.front}${path}`, { method });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_path' });
    expect(handler).not.toHaveBeenCalled();
  });

  it('still decodes a well-formed escape and dispatches the route', async () => {
    const response = await fetch(`${urls.front}/api/modules/caf%C3%A9`);
    expect(response.status).toBe(200);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(handler.mock.calls[0][0].pathParameters).toEqual({ slug: 'café' });
  });

  it("throttles a route over its burst with API Gateway's own 429, before the Lambda", async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${urls.direct}/api/auth/me`)).status);
    expect(statuses).toEqual([200, 200, 429]);
    const throttled = await fetch(`${urls.front}/api/auth/me`);
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('content-type')).toBe('application/json');
    expect(await throttled.json()).toEqual({ message: 'Too Many Requests' });
    expect(handler).toHaveBeenCalledTimes(2);
  });
});

describe('the origin-verify header', () => {
  it('is sent by the front on /api/*, over what the viewer sent', async () => {
    await fetch(`${urls.front}/api/health`, { headers: { [ORIGIN_VERIFY_HEADER]: 'forged-by-the-viewer' } });
    expect(sentHeader()).toBe(ORIGIN_SECRET);
  });

  it('is removed by a front without a secret, and never added by the direct address', async () => {
    await fetch(`${urls.bare}/api/health`, { headers: { [ORIGIN_VERIFY_HEADER]: 'forged-by-the-viewer' } });
    expect(sentHeader()).toBeUndefined();
    handler.mockClear();
    await fetch(`${urls.direct}/api/health`);
    expect(sentHeader()).toBeUndefined();
  });
});

describe('the local CloudFront', () => {
  it('sends only /api/* to the API, as the path pattern says', async () => {
    expect(matchesPathPattern('/api/*', '/api/health')).toBe(true);
    expect(matchesPathPattern('/api/*', '/api')).toBe(false);
    expect(matchesPathPattern('/api/*', '/apiary.js')).toBe(false);
    const bare = await fetch(`${urls.front}/api`);
    expect(bare.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(handler).not.toHaveBeenCalled();
  });

  it('serves files as they are and client routes as index.html', async () => {
    const robots = await fetch(`${urls.front}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(await robots.text()).toBe('User-agent: *\nAllow: /\n');
    const deepLink = await fetch(`${urls.front}/modules/week-1`);
    expect(deepLink.status).toBe(200);
    expect(await deepLink.text()).toContain('<title>app</title>');
  });

  it("answers a missing file with S3's 403 AccessDenied, not index.html", async () => {
    for (const path of ['/missing.js', '/%E0%A4%A.js', '/..%2Fdist-x/secret.txt', '/..%2F..%2Fetc/passwd.txt']) {
      const response = await fetch(`${urls.front}${path}`);
      expect(response.status, path).toBe(403);
      expect(response.headers.get('content-type')).toBe('application/xml');
      expect(await response.text()).toMatch(
        /^<\?xml version="1.0" encoding="UTF-8"\?>\n<Error><Code>AccessDenied<\/Code><Message>Access Denied<\/Message>/,
      );
    }
  });

  it('compresses what the site behaviour compresses (Brotli first), never the API', async () => {
    const asset = await rawGet(`${urls.front}/assets/app-1a2b.js`, { 'accept-encoding': 'gzip, br' });
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers.etag).toMatch(/^W\/"/);
    expect(brotliDecompressSync(asset.body).toString()).toContain('learn learn');
    expect((await rawGet(`${urls.front}/assets/app-1a2b.js`, { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBe('gzip');
    const small = await fetch(`${urls.front}/robots.txt`, { headers: { 'accept-encoding': 'br' } });
    expect(small.headers.get('content-encoding')).toBeNull();
    handler.mockResolvedValueOnce({
      statusCode: 200,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'x'.repeat(5000) }),
    });
    const apiAnswer = await fetch(`${urls.front}/api/health`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(apiAnswer.headers.get('content-encoding')).toBeNull();
  });

  it('puts the security headers over the origin’s on files, S3 errors and API answers', async () => {
    handler.mockResolvedValueOnce({ statusCode: 200, headers: { 'Content-Security-Policy': "default-src 'none'" }, body: '{}' });
    for (const path of ['/', '/assets/app-1a2b.js', '/missing.js', '/api/health']) {
      const response = await fetch(`${urls.front}${path}`);
      expect(response.headers.get('content-security-policy'), path).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('strict-transport-security'), path).toBe('max-age=63072000; includeSubDomains');
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
    }
  });
});

describe('the Host check (DNS rebinding)', () => {
  /** A GET naming `host` as its Host header (fetch would not let the header be set). */
  const withHost = (url: string, host: string) => rawGet(url, { host });

  it('answers localhost names, 127.0.0.1 and [::1] with the port, on the front and the direct address', async () => {
    for (const base of [urls.front, urls.direct]) {
      const port = new URL(base).port;
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `app.localhost:${port}`, `LOCALHOST:${port}`]) {
        expect((await withHost(`${base}/api/health`, host)).status, host).toBe(200);
      }
    }
    expect(handler).toHaveBeenCalledTimes(10);
  });

  it('answers 421 host_not_allowed to any other name or port, before the API or the bucket', async () => {
    const port = new URL(urls.front).port;
    for (const base of [urls.front, urls.direct]) {
      for (const host of [
        `rebind.attacker.example:${port}`,
        'localhost',
        `localhost:${Number(port) + 1}`,
        `localhost.attacker.example:${port}`,
        `192.168.1.5:${port}`,
      ]) {
        for (const path of ['/api/health', '/robots.txt']) {
          const response = await withHost(`${base}${path}`, host);
          expect(response.status, `${host} ${path}`).toBe(421);
          expect(JSON.parse(response.body.toString())).toEqual({ error: 'host_not_allowed' });
        }
      }
    }
    expect(handler).not.toHaveBeenCalled();
  });
});
