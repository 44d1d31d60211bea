import path from 'node:path';
import { Duration, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import { ComparisonOperator, type Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import { ArtifactsEncryptionMode, Canary, Code, Runtime, Schedule, Test } from 'aws-cdk-lib/aws-synthetics';
import { Construct } from 'constructs';
import { buildSync } from 'esbuild';
import type { AlarmSpec } from './monitoring';

/** How often the canary runs, and how long its artifacts (logs, HAR files) are kept. */
export const CANARY_RATE = Duration.minutes(5);
export const CANARY_ARTIFACT_DAYS = 30;
/** Run results CloudWatch Synthetics keeps (its own console history), in days. */
const RUN_HISTORY = Duration.days(30);

/** The checks, as one CommonJS file with no imports (infra/canary/site-check.ts). */
export function siteCheckScript(): string {
  const result = buildSync({
    entryPoints: [path.join(import.meta.dirname, '..', 'canary', 'site-check.ts')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    write: false,
    legalComments: 'none',
  });
  return result.outputFiles[0].text;
}

export interface SiteCanaryProps {
  /** The site's https address (the CloudFront distribution). */
  siteUrl: string;
  /** Where the artifacts bucket's own access logs go (the site's log bucket, prefix `canary-artifacts/`). */
  accessLogBucket: IBucket;
  /** Keep the artifacts bucket when the stack is deleted (prod), or take it along (dev). */
  retainArtifacts: boolean;
}

/**
 * The site as a learner reaches it, checked every five minutes from outside (CloudWatch
 * Synthetics): the SPA's page, `GET /api/health` and one anonymous API call through CloudFront
 * (infra/canary/site-check.ts). Its success rate is alarmed on (docs/runbook.md "Site canary").
 */
export class SiteCanary extends Construct {
  readonly canary: Canary;
  readonly artifacts: Bucket;

  constructor(scope: Construct, id: string, props: SiteCanaryProps) {
    super(scope, id);
    this.artifacts = new Bucket(this, 'Artifacts', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      serverAccessLogsBucket: props.accessLogBucket,
      serverAccessLogsPrefix: 'canary-artifacts/',
      lifecycleRules: [{ expiration: Duration.days(CANARY_ARTIFACT_DAYS) }],
      removalPolicy: props.retainArtifacts ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      autoDeleteObjects: !props.retainArtifacts,
    });
    this.canary = new Canary(this, 'Canary', {
      runtime: Runtime.SYNTHETICS_NODEJS_PUPPETEER_13_0,
      test: Test.custom({ code: Code.fromInline(siteCheckScript()), handler: 'index.handler' }),
      schedule: Schedule.rate(CANARY_RATE),
      environmentVariables: { SITE_URL: props.siteUrl },
      timeout: Duration.minutes(1),
      artifactsBucketLocation: { bucket: this.artifacts, prefix: 'runs' },
      artifactS3EncryptionMode: ArtifactsEncryptionMode.S3_MANAGED,
      successRetentionPeriod: RUN_HISTORY,
      failureRetentionPeriod: RUN_HISTORY,
      // Its Lambda and layer go with it when the stack is deleted.
      provisionedResourceCleanup: true,
    });
    // cdk-nag names a finding by the resolved text: literals when the stack has an env, else <AWS::…>.
    const stack = Stack.of(this);
    const pseudo = (value: string, name: string) => (Token.isUnresolved(value) ? `<AWS::${name}>` : value);
    const bucketId = stack.getLogicalId(this.artifacts.node.defaultChild as CfnBucket);
    const role = 'The role aws-cdk-lib gives a canary';
    Validations.of(this.canary.role).acknowledge(
      {
        id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/runs/*]`,
        reason: `${role}: it writes each run's artifacts under the runs/ prefix of its own bucket.`,
      },
      {
        id: `AwsSolutions-IAM5[Resource::arn:${pseudo(stack.partition, 'Partition')}:logs:${pseudo(stack.region, 'Region')}:${pseudo(stack.account, 'AccountId')}:log-group:/aws/lambda/cwsyn-*]`,
        reason: `${role}: Synthetics names the canary's log group /aws/lambda/cwsyn-<name>-<id> when it creates it, so the grant can only name the prefix.`,
      },
      {
        id: 'Serverless-LambdaStarPermissions',
        reason: `${role}: the object, log-group and metric grants above, each as narrow as Synthetics allows.`,
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: `${role}: s3:ListAllMyBuckets and cloudwatch:PutMetricData (limited to the CloudWatchSynthetics namespace by a condition) take no resource.`,
      },
    );
  }

  /** SuccessPercent per five-minute period (one run each). */
  metricSuccessPercent(): Metric {
    return this.canary.metricSuccessPercent({ period: CANARY_RATE, statistic: 'Average' });
  }
}

/**
 * Two failed runs within 15 minutes. No data counts as failing: a canary that no longer runs
 * (stopped, its Lambda broken) leaves the site unwatched, which must not pass in silence.
 */
export const SITE_CANARY_ALARM: AlarmSpec = {
  threshold: 100,
  comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
  evaluationPeriods: 3,
  datapointsToAlarm: 2,
  treatMissingData: TreatMissingData.BREACHING,
  meaning:
    'The site canary failed 2 of its last 3 runs (every 5 minutes, through CloudFront: the SPA page, GET /api/health, an anonymous certificate check), or stopped running: learners cannot reach the site or the API.',
  runbook: 'site-canary',
};
