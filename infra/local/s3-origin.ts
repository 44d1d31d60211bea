import { createHash, randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { OriginAnswer } from './origin-answer';
import { SITE_ASSETS_PREFIX, SITE_CACHE_CONTROL } from '../edge-behaviour';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  // the certificate PDF's embedded fonts (BucketDeployment types them the same way)
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

/**
 * S3's answer for a key it does not hold when the caller may read objects but not list the
 * bucket (Origin Access Control with s3:GetObject only): 403 AccessDenied, never 404.
 */
export function accessDenied(): OriginAnswer {
  const requestId = randomBytes(8).toString('hex').toUpperCase();
  const hostId = randomBytes(48).toString('base64');
  const xml =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>AccessDenied</Code><Message>Access Denied</Message><RequestId>${requestId}</RequestId><HostId>${hostId}</HostId></Error>`;
  return { status: 403, headers: { 'content-type': 'application/xml' }, body: Buffer.from(xml) };
}

/** The file a request path names under root (percent escapes decoded), or undefined when it names none there. */
export function objectFile(root: string, uri: string): string | undefined {
  let key: string;
  try {
    key = decodeURIComponent(uri);
  } catch {
    return undefined;
  }
  const file = normalize(join(root, key));
  // root + sep: a bare prefix test would let `/..%2Fdist-x/…` reach a sibling folder named dist-x.
  return file.startsWith(root + sep) ? file : undefined;
}

/**
 * GetObject on the site bucket, whose objects are the files under `root` (what the deployment
 * uploads): the file with its type, length and ETag, or S3's 403. Cache-Control is the one the
 * deployment sets on the bucket's objects (SITE_CACHE_CONTROL): hashed assets forever, the rest revalidated.
 */
export async function getObject(root: string, uri: string): Promise<OriginAnswer> {
  const file = objectFile(root, uri);
  const info = file ? await stat(file).catch(() => undefined) : undefined;
  if (!file || !info?.isFile()) return accessDenied();
  const body = await readFile(file);
  return {
    status: 200,
    headers: {
      'content-type': MIME[extname(file)] ?? 'application/octet-stream',
      'content-length': String(body.length),
      etag: `"${createHash('md5').update(body).digest('hex')}"`,
      'last-modified': info.mtime.toUTCString(),
      'cache-control': file.startsWith(join(root, SITE_ASSETS_PREFIX)) ? SITE_CACHE_CONTROL.assets : SITE_CACHE_CONTROL.pages,
    },
    body,
  };
}
