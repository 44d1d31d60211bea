import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SITE_BEHAVIOURS } from '../edge-behaviour';
import { edgeCompression, edgeEncoding } from './edge-compression';
import type { OriginAnswer } from './origin-answer';

/** CloudFront's rules for compressing at the edge (Amazon CloudFront Developer Guide, "Serve compressed files"). */
const viewer = (acceptEncoding: string | undefined, httpVersion = '1.1') => ({ httpVersion, acceptEncoding });
const answer = (headers: Record<string, string>): OriginAnswer => ({ status: 200, headers, body: Buffer.alloc(0) });
const js = (length: number) => answer({ 'content-type': 'text/javascript; charset=utf-8', 'content-length': String(length) });

describe('which encoding CloudFront answers with', () => {
  it('prefers Brotli, else Gzip, on the site behaviour', () => {
    expect(edgeEncoding(viewer('gzip, deflate, br'), js(5000), SITE_BEHAVIOURS.site)).toBe('br');
    expect(edgeEncoding(viewer('gzip'), js(5000), SITE_BEHAVIOURS.site)).toBe('gzip');
    expect(edgeEncoding(viewer('br;q=0, gzip'), js(5000), SITE_BEHAVIOURS.site)).toBe('gzip');
    expect(edgeEncoding(viewer('deflate'), js(5000), SITE_BEHAVIOURS.site)).toBeUndefined();
    expect(edgeEncoding(viewer(undefined), js(5000), SITE_BEHAVIOURS.site)).toBeUndefined();
  });

  it('never on the API behaviour (CachingDisabled caches no compressed object), nor with compression off', () => {
    expect(edgeEncoding(viewer('gzip, br'), js(5000), SITE_BEHAVIOURS.api)).toBeUndefined();
    expect(edgeEncoding(viewer('gzip, br'), js(5000), { ...SITE_BEHAVIOURS.site, compress: false })).toBeUndefined();
  });

  it('only for 1,000 to 10,000,000 bytes as Content-Length says', () => {
    expect(edgeEncoding(viewer('br'), js(999), SITE_BEHAVIOURS.site)).toBeUndefined();
    expect(edgeEncoding(viewer('br'), js(1000), SITE_BEHAVIOURS.site)).toBe('br');
    expect(edgeEncoding(viewer('br'), js(10_000_000), SITE_BEHAVIOURS.site)).toBe('br');
    expect(edgeEncoding(viewer('br'), js(10_000_001), SITE_BEHAVIOURS.site)).toBeUndefined();
    expect(edgeEncoding(viewer('br'), answer({ 'content-type': 'text/css' }), SITE_BEHAVIOURS.site)).toBeUndefined();
  });

  it('only for the content types CloudFront compresses', () => {
    const typed = (type: string) => answer({ 'content-type': type, 'content-length': '5000' });
    for (const type of ['text/html; charset=utf-8', 'text/css', 'application/json', 'image/svg+xml', 'text/plain'])
      expect(edgeEncoding(viewer('br'), typed(type), SITE_BEHAVIOURS.site), type).toBe('br');
    for (const type of ['image/png', 'font/woff2', 'application/octet-stream', 'image/x-icon'])
      expect(edgeEncoding(viewer('br'), typed(type), SITE_BEHAVIOURS.site), type).toBeUndefined();
  });

  it('not an answer the origin already encoded, nor an HTTP/1.0 request', () => {
    expect(
      edgeEncoding(
        viewer('br'),
        answer({ 'content-type': 'text/css', 'content-length': '5000', 'content-encoding': 'identity' }),
        SITE_BEHAVIOURS.site,
      ),
    ).toBeUndefined();
    expect(edgeEncoding(viewer('br', '1.0'), js(5000), SITE_BEHAVIOURS.site)).toBeUndefined();
  });
});

describe('the compressed answer', () => {
  it('carries the encoding, its own length, a weak ETag and Vary', async () => {
    const body = Buffer.from('a'.repeat(4000));
    const original: OriginAnswer = {
      status: 200,
      headers: { 'content-type': 'text/plain', 'content-length': '4000', etag: '"abc"' },
      body,
    };
    const compressed = await edgeCompression()(viewer('gzip'), original, SITE_BEHAVIOURS.site);
    expect(gunzipSync(compressed.body).equals(body)).toBe(true);
    expect(compressed.headers).toMatchObject({
      'content-encoding': 'gzip',
      'content-length': String(compressed.body.length),
      etag: 'W/"abc"',
      vary: 'Accept-Encoding',
    });
  });

  it('leaves an answer it does not compress untouched', async () => {
    const original = js(500);
    expect(await edgeCompression()(viewer('gzip, br'), original, SITE_BEHAVIOURS.site)).toBe(original);
  });
});
