import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CustomResource, CustomResourceProvider, CustomResourceProviderRuntime, Duration, Size } from 'aws-cdk-lib';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct, type IConstruct } from 'constructs';
import { buildSync } from 'esbuild';
import type { CleanupProperties } from '../asset-cleanup/handler';
import { LEAN_ESBUILD } from './bundling';

/** How long a file stays after the last release that named it was replaced (docs/runbook.md#deploy). */
export const ASSET_GRACE_DAYS = 30;
/** Where the cleanup records when each file was last current; outside what CloudFront may serve. */
export const ASSET_HISTORY_KEY = 'site-deploy/asset-history.json';

let codeDirectory: string | undefined;
/** The handler (infra/asset-cleanup/handler.ts) bundled with its S3 client, built once per process. */
function cleanupCode(): string {
  if (codeDirectory) return codeDirectory;
  const dir = mkdtempSync(path.join(tmpdir(), 'site-asset-cleanup-'));
  buildSync({
    entryPoints: [path.join(import.meta.dirname, '..', 'asset-cleanup', 'handler.ts')],
    outfile: path.join(dir, 'index.js'),
    ...LEAN_ESBUILD,
    mainFields: [...LEAN_ESBUILD.mainFields],
    legalComments: 'none',
  });
  codeDirectory = dir;
  return dir;
}

/** The keys of the build's files under `prefix` (e.g. `assets/index-Ab12.js`), source maps left out as the upload leaves them. */
export function releaseAssets(siteDir: string, prefix: string, exclude: (name: string) => boolean): string[] {
  const dir = path.join(siteDir, prefix);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !exclude(entry.name))
    .map((entry) => `${prefix}${path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`)
    .sort();
}

export interface SiteAssetCleanupProps {
  bucket: IBucket;
  /** The prefix of the hashed files, with its slash (`assets/`). */
  prefix: string;
  /** The keys the release being deployed names. */
  currentAssets: string[];
  /** The uploads it must run after. */
  after: IConstruct[];
}

/**
 * Deletes the hashed files of earlier releases once no release has named them for
 * ASSET_GRACE_DAYS (infra/asset-cleanup). Runs when the release's file list changes, after the
 * uploads; a failure is logged and never fails the deploy (infra/asset-cleanup/handler.ts says why).
 */
export class SiteAssetCleanup extends Construct {
  readonly resource: CustomResource;
  readonly provider: CustomResourceProvider;

  constructor(scope: Construct, id: string, props: SiteAssetCleanupProps) {
    super(scope, id);
    const { bucket, prefix } = props;
    this.provider = CustomResourceProvider.getOrCreateProvider(this, 'Custom::SiteAssetCleanup', {
      codeDirectory: cleanupCode(),
      runtime: CustomResourceProviderRuntime.NODEJS_22_X,
      description: 'Deletes site assets no release has named for the grace period (deploy time only)',
      timeout: Duration.minutes(5),
      memorySize: Size.mebibytes(256),
      policyStatements: [
        {
          // the listing of the assets and of the record, nothing else of the bucket
          Effect: 'Allow',
          Action: 's3:ListBucket',
          Resource: bucket.bucketArn,
          Condition: { StringEquals: { 's3:prefix': [prefix, ASSET_HISTORY_KEY] } },
        },
        { Effect: 'Allow', Action: 's3:DeleteObject', Resource: bucket.arnForObjects(`${prefix}*`) },
        { Effect: 'Allow', Action: ['s3:GetObject', 's3:PutObject'], Resource: bucket.arnForObjects(ASSET_HISTORY_KEY) },
      ],
    });
    const properties: CleanupProperties = {
      BucketName: bucket.bucketName,
      Prefix: prefix,
      HistoryKey: ASSET_HISTORY_KEY,
      GraceDays: String(ASSET_GRACE_DAYS),
      CurrentAssets: props.currentAssets,
    };
    this.resource = new CustomResource(this, 'Resource', {
      serviceToken: this.provider.serviceToken,
      resourceType: 'Custom::SiteAssetCleanup',
      properties: { ...properties },
    });
    for (const upload of props.after) this.resource.node.addDependency(upload);
  }
}
