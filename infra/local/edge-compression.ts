import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { MANAGED_CACHE_POLICIES, type SiteBehaviour } from '../edge-behaviour';
import type { OriginAnswer } from './origin-answer';

/**
 * CloudFront's edge compression (Amazon CloudFront Developer Guide, "Serve compressed files"),
 * applied per behaviour as the distribution defines it: Brotli when the viewer accepts it, else
 * Gzip, each only when the behaviour compresses and its cache policy caches that encoding
 * (CachingDisabled caches neither, so the API is never compressed); only for the Content-Type
 * values CloudFront compresses; only for a body of 1,000 to 10,000,000 bytes announced by
 * Content-Length; never an answer that already has a Content-Encoding, nor an HTTP/1.0 request.
 */
const COMPRESSED_TYPES = new Set([
  'application/dash+xml',
  'application/eot',
  'application/font',
  'application/font-sfnt',
  'application/javascript',
  'application/json',
  'application/opentype',
  'application/otf',
  'application/pkcs7-mime',
  'application/protobuf',
  'application/rss+xml',
  'application/truetype',
  'application/ttf',
  'application/vnd.apple.mpegurl',
  'application/vnd.ms-fontobject',
  'application/xhtml+xml',
  'application/xml',
  'application/x-font-opentype',
  'application/x-font-truetype',
  'application/x-font-ttf',
  'application/x-httpd-cgi',
  'application/x-javascript',
  'application/x-mpegurl',
  'application/x-opentype',
  'application/x-otf',
  'application/x-perl',
  'application/x-ttf',
  'font/eot',
  'font/opentype',
  'font/otf',
  'font/ttf',
  'image/svg+xml',
  'text/css',
  'text/csv',
  'text/html',
  'text/javascript',
  'text/js',
  'text/plain',
  'text/richtext',
  'text/tab-separated-values',
  'text/xml',
  'text/x-component',
  'text/x-java-source',
  'text/x-script',
  'vnd.apple.mpegurl',
]);
const MIN_BYTES = 1_000;
const MAX_BYTES = 10_000_000;

export type EdgeEncoding = 'br' | 'gzip';

/** The codings a viewer's Accept-Encoding names (a coding it gives q=0 counts as refused). */
function acceptedCodings(header: string | undefined): Set<string> {
  const codings = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const refused = params.some((param) => /^q=0(\.0{0,3})?$/.test(param));
    if (name && !refused) codings.add(name);
  }
  return codings;
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The encoding CloudFront would answer this viewer with, or undefined for the answer as it is. */
export function edgeEncoding(
  viewer: { httpVersion: string; acceptEncoding: string | undefined },
  answer: OriginAnswer,
  behaviour: SiteBehaviour,
): EdgeEncoding | undefined {
  const policy = MANAGED_CACHE_POLICIES[behaviour.cachePolicy];
  if (!behaviour.compress || viewer.httpVersion === '1.0') return undefined;
  const accepted = acceptedCodings(viewer.acceptEncoding);
  const encoding = policy.brotli && accepted.has('br') ? 'br' : policy.gzip && accepted.has('gzip') ? 'gzip' : undefined;
  if (!encoding || answer.headers['content-encoding'] !== undefined) return undefined;
  const length = Number(single(answer.headers['content-length']) ?? NaN);
  if (!(length >= MIN_BYTES && length <= MAX_BYTES)) return undefined;
  const type = (single(answer.headers['content-type']) ?? '').split(';')[0].trim().toLowerCase();
  return COMPRESSED_TYPES.has(type) ? encoding : undefined;
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
// CloudFront does not publish its levels; an on-the-fly Brotli level, not the maximum (11 takes
// seconds for one of the larger bundles), gives sizes close to what a viewer gets.
const compressors: Record<EdgeEncoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) => brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (body) => gzipped(body),
};

/** A strong ETag becomes weak on a compressed answer; one that is neither strong nor weak is dropped. */
function compressedEtag(etag: string | undefined): string | undefined {
  if (!etag || etag.startsWith('W/')) return etag;
  return etag.startsWith('"') ? `W/${etag}` : undefined;
}

/**
 * The answer as the viewer gets it from CloudFront. Compressed bodies are kept by ETag, as an
 * edge location caches them: the built files do not change while the server runs.
 */
export function edgeCompression(): (
  viewer: Parameters<typeof edgeEncoding>[0],
  answer: OriginAnswer,
  behaviour: SiteBehaviour,
) => Promise<OriginAnswer> {
  const cache = new Map<string, Buffer>();
  return async (viewer, answer, behaviour) => {
    const encoding = edgeEncoding(viewer, answer, behaviour);
    if (!encoding) return answer;
    const etag = single(answer.headers.etag);
    const key = etag ? `${encoding} ${etag}` : undefined;
    const body = (key && cache.get(key)) || (await compressors[encoding](answer.body));
    if (key) cache.set(key, body);
    const headers = { ...answer.headers };
    delete headers.etag;
    const weakEtag = compressedEtag(etag);
    return {
      status: answer.status,
      headers: {
        ...headers,
        ...(weakEtag ? { etag: weakEtag } : {}),
        'content-encoding': encoding,
        'content-length': String(body.length),
        vary: 'Accept-Encoding',
      },
      body,
    };
  };
}
