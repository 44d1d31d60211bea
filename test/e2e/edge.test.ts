import type { IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, inject, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../infra/edge-behaviour';
import { rawGet } from '../helpers/raw-get';

/**
 * The built site through the running local runtime (`npm start`), answered as CloudFront and S3
 * answer it (infra/edge-behaviour.ts): compressed assets, the security headers, files as they
 * are, S3's 403 for a missing one, index.html for a client route; and the API refused at its own
 * address.
 */
const appUrl = inject('appUrl');

const expectSecurityHeaders = (headers: IncomingHttpHeaders) =>
  expect(headers).toMatchObject({
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'strict-transport-security': 'max-age=63072000; includeSubDomains',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
  });

describe('the built site through the local CloudFront', () => {
  it('sends a built script Brotli-compressed, with the security headers', async () => {
    const index = await rawGet(`${appUrl}/`);
    const script = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(index.body.toString())?.[1];
    expect(script).toBeDefined();
    const asset = await rawGet(`${appUrl}${script}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(brotliDecompressSync(asset.body).length).toBeGreaterThan(asset.body.length);
    expectSecurityHeaders(asset.headers);
    expectSecurityHeaders(index.headers);
  });

  it('serves /robots.txt as the file it is', async () => {
    const robots = await rawGet(`${appUrl}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(robots.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(robots.body.toString()).toMatch(/^User-agent: \*$/m);
  });

  it("answers a missing file with S3's 403 AccessDenied XML, and a client route with index.html", async () => {
    const missing = await rawGet(`${appUrl}/missing.js`);
    expect(missing.status).toBe(403);
    expect(missing.headers['content-type']).toBe('application/xml');
    expect(missing.body.toString()).toContain('<Code>AccessDenied</Code>');
    expectSecurityHeaders(missing.headers);
    const deepLink = await rawGet(`${appUrl}/admin/users`);
    expect(deepLink.status).toBe(200);
    expect(deepLink.body.toString()).toContain('<div id="root"></div>');
  });
});

describe("the API's own address (no CloudFront in front)", () => {
  it('refuses with 403 forbidden what the front accepts', async () => {
    const direct = await fetch(`${inject('directApiUrl')}/api/health`);
    expect(direct.status).toBe(403);
    expect(await direct.json()).toEqual({ error: 'forbidden' });
    const front = await fetch(`${appUrl}/api/health`);
    expect(front.status).toBe(200);
    expect(await front.json()).toEqual({ ok: true });
  });
});
