import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { type AssetHistory, type ListedAsset, planAssetCleanup } from './plan';

/**
 * The site's asset cleanup, a CloudFormation custom resource that runs after both uploads of a
 * site deploy (infra/constructs/site-asset-cleanup.ts): it deletes the `assets/` files no release
 * has named for the grace period (infra/asset-cleanup/plan.ts) and records when each remaining
 * file was last current. Deploy time only; never part of the product's runtime.
 */

/** The custom resource's properties (CloudFormation passes every value as a string). */
export interface CleanupProperties {
  BucketName: string;
  Prefix: string;
  HistoryKey: string;
  GraceDays: string;
  CurrentAssets: string[];
}

export interface CustomResourceEvent {
  RequestType: 'Create' | 'Update' | 'Delete';
  PhysicalResourceId?: string;
  ResourceProperties: CleanupProperties;
  OldResourceProperties?: Partial<CleanupProperties>;
}

/** DeleteObjects takes at most this many keys per request. */
export const DELETE_BATCH = 1000;
const PHYSICAL_ID = 'site-asset-cleanup';
const DAY_MS = 24 * 60 * 60 * 1000;

export interface CleanupResult {
  deleted: number;
  kept: number;
  failed: number;
  refused?: string;
}

/** One run against the bucket: list, plan, delete in batches, record. */
export async function cleanUpAssets(s3: S3Client, properties: CleanupProperties, previous: string[], now: Date): Promise<CleanupResult> {
  const bucket = properties.BucketName;
  const listed = await listAssets(s3, bucket, properties.Prefix);
  const history = await readHistory(s3, bucket, properties.HistoryKey);
  const plan = planAssetCleanup({
    listed,
    current: properties.CurrentAssets,
    previous,
    history,
    now,
    graceMs: Number(properties.GraceDays) * DAY_MS,
  });
  if (plan.refused) return { deleted: 0, kept: listed.length, failed: 0, refused: plan.refused };

  const failedKeys = new Set<string>();
  for (let start = 0; start < plan.expired.length; start += DELETE_BATCH) {
    const batch = plan.expired.slice(start, start + DELETE_BATCH);
    const answer = await s3.send(
      new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
    );
    for (const error of answer.Errors ?? []) if (error.Key) failedKeys.add(error.Key);
  }
  // A file that failed to go keeps its record, so the next run deletes it without a new grace.
  const kept: AssetHistory = { ...plan.history };
  for (const key of failedKeys) {
    const known = history[key];
    if (known !== undefined) kept[key] = known;
  }
  await s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: properties.HistoryKey,
      Body: JSON.stringify(kept),
      ContentType: 'application/json',
      CacheControl: 'no-store',
    }),
  );
  return { deleted: plan.expired.length - failedKeys.size, kept: Object.keys(kept).length, failed: failedKeys.size };
}

async function listAssets(s3: S3Client, bucket: string, prefix: string): Promise<ListedAsset[]> {
  const listed: ListedAsset[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
    for (const object of page.Contents ?? [])
      if (object.Key && object.LastModified) listed.push({ key: object.Key, lastModified: object.LastModified });
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return listed;
}

/** The record of earlier runs; none yet (first run) or unreadable counts as empty, which deletes later, never sooner. */
async function readHistory(s3: S3Client, bucket: string, key: string): Promise<AssetHistory> {
  // Listed first: the role may list only this key and `assets/`, so a GET of a missing record
  // would answer AccessDenied rather than NoSuchKey.
  const found = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: key, MaxKeys: 1 }));
  if (!found.Contents?.some((object) => object.Key === key)) return {};
  const answer = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const text = (await answer.Body?.transformToString()) ?? '';
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    // an unreadable record is no record
  }
  console.warn(JSON.stringify({ message: 'asset cleanup record unreadable, starting a new one', key }));
  return {};
}

/** The answer to one CloudFormation request, against the given client. */
export async function answerEvent(
  event: CustomResourceEvent,
  s3: () => S3Client,
  now: Date,
): Promise<{ PhysicalResourceId: string; Data: Record<string, string> }> {
  // Removing the resource (or the stack) deletes nothing: the bucket's files are the live site's.
  if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId ?? PHYSICAL_ID, Data: {} };
  try {
    const result = await cleanUpAssets(s3(), event.ResourceProperties, event.OldResourceProperties?.CurrentAssets ?? [], now);
    console.log(JSON.stringify({ message: result.refused ? 'asset cleanup refused' : 'asset cleanup done', ...result }));
    return { PhysicalResourceId: PHYSICAL_ID, Data: { Deleted: String(result.deleted), Failed: String(result.failed) } };
  } catch (error) {
    console.error(
      JSON.stringify({
        message: 'asset cleanup failed',
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      }),
    );
    return { PhysicalResourceId: PHYSICAL_ID, Data: { Deleted: '0', Failed: 'all' } };
  }
}

let client: S3Client | undefined;

/**
 * The custom resource's handler (called by aws-cdk-lib's response wrapper). It never fails the
 * deploy: a failed cleanup only leaves files for the next site deploy, while a failed custom
 * resource would roll the stack back and run again in the roll back, where a second failure
 * leaves the stack in UPDATE_ROLLBACK_FAILED and blocks every deploy and roll back after it.
 * Failures are logged at ERROR instead (docs/runbook.md#deploy).
 */
export const handler = (event: CustomResourceEvent) => answerEvent(event, () => (client ??= new S3Client({})), new Date());
