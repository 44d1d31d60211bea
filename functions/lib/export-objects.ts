import { randomUUID } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { EXPORT_OBJECT_PREFIX } from '../../shared/constants';
import { config } from './config';
import { checkLocalCall } from './local-twin';
import { currentDate } from './clock';

/**
 * A document too large for one API answer (Lambda answers at most 6 MB), handed over as an
 * object behind a short-lived link: in the cloud an S3 object (infra/constructs/export-bucket.ts:
 * private, encrypted, expired after a day) and a presigned GET; locally a file that the local
 * server serves once (infra/local/export-files.ts).
 */

/** How long a link lives: the browser follows it at once. */
export const EXPORT_LINK_SECONDS = 300;

/** What the API answers instead of the document. */
export interface ExportLink {
  download_url: string;
  expires_at: string;
}

/** The local runtime's stand-in for the bucket: keeps the body, answers the address that serves it once. */
export interface LocalExportStore {
  put(key: string, body: Buffer, fileName: string, expiresAt: Date): Promise<string>;
}

let localStore: LocalExportStore | undefined;
/** The local server registers its store (infra/local/api-server.ts); in Lambda none is. */
export function registerLocalExportStore(store: LocalExportStore | undefined): void {
  localStore = store;
}

// eslint-disable-next-line import-x/no-unresolved -- ./s3-client.ts; in a bundle, the file beside index.js (LAZY_CHUNKS)
const s3Module = () => import('./s3-client.js');
let s3: S3Client | undefined;

/**
 * Stores `body` under a new random key (the key names nobody) and answers a link that downloads
 * it as `fileName`. The presigned link is signed with the function's own credentials: it works
 * while they do, and reads nothing the function may not read.
 */
export async function storeExport(body: Buffer, fileName: string, now = currentDate()): Promise<ExportLink> {
  const key = `${EXPORT_OBJECT_PREFIX}${randomUUID()}.json`;
  const expiresAt = new Date(now.getTime() + EXPORT_LINK_SECONDS * 1000);
  const bucket = config().exportBucket;
  if (!bucket) {
    if (!localStore) throw new Error('no export bucket (EXPORT_BUCKET) and no local export store');
    // the calls the cloud makes, held to the function's role by the local runtime
    await checkLocalCall('s3:PutObject', { kind: 'object', bucket: 'exports', key });
    await checkLocalCall('s3:GetObject', { kind: 'object', bucket: 'exports', key });
    return { download_url: await localStore.put(key, body, fileName, expiresAt), expires_at: expiresAt.toISOString() };
  }
  const { GetObjectCommand, PutObjectCommand, S3Client, getSignedUrl } = await s3Module();
  s3 ??= new S3Client({ region: config().region });
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'application/json; charset=utf-8' }));
  const read = new GetObjectCommand({
    Bucket: bucket,
    Key: key,
    ResponseContentDisposition: `attachment; filename="${fileName}"`,
    ResponseContentType: 'application/json; charset=utf-8',
    ResponseCacheControl: 'no-store',
  });
  return { download_url: await getSignedUrl(s3, read, { expiresIn: EXPORT_LINK_SECONDS }), expires_at: expiresAt.toISOString() };
}
