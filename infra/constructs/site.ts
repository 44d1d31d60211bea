import { Duration, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  type CfnDistribution,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  type ICachePolicy,
  OriginProtocolPolicy,
  OriginRequestCookieBehavior,
  OriginRequestHeaderBehavior,
  OriginRequestPolicy,
  OriginRequestQueryStringBehavior,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { HttpOrigin, type HttpOriginProps, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { ORIGIN_VERIFY_HEADER } from '../../shared/origin-verify';
import {
  API_PATH_PATTERN,
  CONTENT_SECURITY_POLICY,
  type ManagedCachePolicy,
  SECURITY_HEADERS,
  SITE_ASSETS_PREFIX,
  SITE_BEHAVIOURS,
  SITE_CACHE_CONTROL,
  SPA_FALLBACK_FUNCTION,
} from '../edge-behaviour';
import { ASSET_HISTORY_KEY, releaseAssets, SiteAssetCleanup } from './site-asset-cleanup';

/** Viewer headers the API reads (CSRF Origin check, JSON content type, audit user agent, client IP). */
export const API_FORWARDED_HEADERS = ['Origin', 'Content-Type', 'Accept', 'User-Agent', 'Referer', 'CloudFront-Viewer-Address'];

export { CONTENT_SECURITY_POLICY, SPA_FALLBACK_FUNCTION };

/**
 * An HTTP origin CloudFront connects to with a client certificate (origin mutual TLS), which
 * the CDK's HttpOrigin cannot express yet.
 */
class MutualTlsHttpOrigin extends HttpOrigin {
  constructor(
    domainName: string,
    private readonly clientCertificateArn: string,
    props: HttpOriginProps,
  ) {
    super(domainName, props);
  }

  protected override renderCustomOriginConfig(): CfnDistribution.CustomOriginConfigProperty | undefined {
    const config = super.renderCustomOriginConfig();
    return config && { ...config, originMtlsConfig: { clientCertificateArn: this.clientCertificateArn } };
  }
}

/** The build's source maps, kept out of the site deployment. */
const SOURCE_MAPS = ['*.map'];

/** The managed cache policies of infra/edge-behaviour.ts, as CDK objects. */
const CACHE_POLICIES: Record<ManagedCachePolicy, ICachePolicy> = {
  CachingOptimized: CachePolicy.CACHING_OPTIMIZED,
  CachingDisabled: CachePolicy.CACHING_DISABLED,
};

const FRAME_OPTIONS: Record<(typeof SECURITY_HEADERS)['frameOption'], HeadersFrameOption> = { DENY: HeadersFrameOption.DENY };
const REFERRER_POLICIES: Record<(typeof SECURITY_HEADERS)['referrerPolicy'], HeadersReferrerPolicy> = {
  'strict-origin-when-cross-origin': HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
};

export interface SiteProps {
  /** Directory with the built SPA (index.html and assets/). */
  siteDir: string;
  /** Host name of the HTTP API: its own domain, or (dev) e.g. `abc123.execute-api.eu-west-1.amazonaws.com`. */
  apiDomainName: string;
  /**
   * The client certificate CloudFront presents to the API's own domain (mutual TLS; ACM in
   * us-east-1, docs/runbook.md#api-origin). Unset: the execute-api address, without mutual TLS.
   */
  apiClientCertificateArn?: string;
  /** Answer viewers over IPv6 too (docs/security.md#edge-and-api-throttles); default IPv4 only. */
  viewerIpv6?: boolean;
  /** Keep the site bucket on stack deletion (prod, infra/stage.ts); default: it goes with the stack. */
  retainBucket?: boolean;
  /** Retention of the deployment log group; default one month. */
  logRetention?: RetentionDays;
  /**
   * The origin check (docs/security.md#the-api-is-reachable-through-cloudfront-only): the secret CloudFront sends to the API in the origin-verify header
   * (a CloudFormation dynamic reference to Secrets Manager, resolved at deploy time).
   */
  originVerifyValue: string;
  /** The WAF web ACL (CLOUDFRONT scope, us-east-1 companion stack) guarding the distribution (docs/security.md#edge-and-api-throttles). */
  webAclArn?: string;
  /**
   * The site's own domain (docs/runbook.md#custom-domain): its ACM certificate must be in
   * us-east-1. With it the distribution answers TLS 1.2 or later only (TLSv1.2_2021); the default
   * *.cloudfront.net certificate cannot pin a minimum version.
   */
  customDomain?: CustomDomain;
}

/** A domain name and the ARN of its ACM certificate. */
export interface CustomDomain {
  domainName: string;
  certificateArn: string;
}

/**
 * The web front door: a private S3 bucket for the SPA behind CloudFront (Origin Access Control),
 * `/api/*` forwarded uncached to the HTTP API on the same origin so the session cookie is
 * first-party, security headers on every response, and the build uploaded on each deploy.
 */
export class Site extends Construct {
  readonly bucket: Bucket;
  readonly logBucket: Bucket;
  readonly distribution: Distribution;
  /** The pages (index.html …): revalidated on every load; with the CloudFront invalidation. */
  readonly deployment: BucketDeployment;
  /** The build's content-hashed `assets/`: cached for a year; uploaded before the pages. */
  readonly assetsDeployment: BucketDeployment;
  /** Deletes earlier releases' `assets/` once none has named them for the grace period; after both uploads. */
  readonly assetCleanup: SiteAssetCleanup;

  constructor(scope: Construct, id: string, props: SiteProps) {
    super(scope, id);

    // Access logs of the bucket and of CloudFront. CloudFront's standard logs are delivered
    // through an ACL, hence ObjectOwnership.BUCKET_OWNER_PREFERRED rather than ACLs disabled.
    this.logBucket = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      // Logs are evidence after an incident: prod keeps them; a dev stack takes them along.
      removalPolicy: props.retainBucket ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      autoDeleteObjects: !props.retainBucket,
    });

    // CloudFront logging v2 (CloudFrontAccessLogs) writes through the log delivery service.
    this.logBucket.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('delivery.logs.amazonaws.com')],
        actions: ['s3:PutObject'],
        resources: [this.logBucket.arnForObjects('cloudfront/*')],
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account, 's3:x-amz-acl': 'bucket-owner-full-control' } },
      }),
    );

    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      serverAccessLogsBucket: this.logBucket,
      serverAccessLogsPrefix: 's3/',
      // Only build output lives here: it is rebuilt from source, so a dev stack takes it along;
      // prod keeps it so a deleted stack still serves a page until the next deploy.
      removalPolicy: props.retainBucket ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      autoDeleteObjects: !props.retainBucket,
    });

    const securityHeaders = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Career program security headers',
      securityHeadersBehavior: {
        strictTransportSecurity: {
          accessControlMaxAge: Duration.seconds(SECURITY_HEADERS.hstsMaxAgeSeconds),
          includeSubdomains: SECURITY_HEADERS.hstsIncludeSubdomains,
          override: true,
        },
        contentSecurityPolicy: { contentSecurityPolicy: SECURITY_HEADERS.contentSecurityPolicy, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: FRAME_OPTIONS[SECURITY_HEADERS.frameOption], override: true },
        referrerPolicy: { referrerPolicy: REFERRER_POLICIES[SECURITY_HEADERS.referrerPolicy], override: true },
      },
    });

    // Not the managed AllViewerExceptHostHeader: it does not carry CloudFront-Viewer-Address,
    // which the API needs for per-IP rate limits and audit IPs (the source IP is an edge node).
    const apiOriginRequests = new OriginRequestPolicy(this, 'ApiOriginRequests', {
      comment: 'API: all cookies and query strings, the headers the API reads and the viewer address; never Host',
      cookieBehavior: OriginRequestCookieBehavior.all(),
      queryStringBehavior: OriginRequestQueryStringBehavior.all(),
      headerBehavior: OriginRequestHeaderBehavior.allowList(...API_FORWARDED_HEADERS),
    });

    const spaFallback = new CloudFrontFunction(this, 'SpaFallback', {
      code: FunctionCode.fromInline(SPA_FALLBACK_FUNCTION),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Serve index.html for client-side routes',
    });

    const apiOriginProps: HttpOriginProps = {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      // the API refuses every request without this header (functions/lib/origin-verify.ts).
      customHeaders: { [ORIGIN_VERIFY_HEADER]: props.originVerifyValue },
    };
    const apiOrigin = props.apiClientCertificateArn
      ? new MutualTlsHttpOrigin(props.apiDomainName, props.apiClientCertificateArn, apiOriginProps)
      : new HttpOrigin(props.apiDomainName, apiOriginProps);

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Career program',
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      // No legacy standard logging: its records always keep the query string, and the reset
      // link's `?token=` must not land in a log (docs/security.md). Access logs without query
      // strings are delivered by CloudFrontAccessLogs (logging v2, field selection).
      enableLogging: false,
      // IPv4 only unless asked: the WAF's per-address rules cannot count IPv6 by /64.
      enableIpv6: props.viewerIpv6 ?? false,
      webAclId: props.webAclArn,
      ...(props.customDomain && {
        domainNames: [props.customDomain.domainName],
        certificate: Certificate.fromCertificateArn(this, 'Certificate', props.customDomain.certificateArn),
        minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
      }),
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CACHE_POLICIES[SITE_BEHAVIOURS.site.cachePolicy],
        compress: SITE_BEHAVIOURS.site.compress,
        responseHeadersPolicy: securityHeaders,
        functionAssociations: [{ function: spaFallback, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        [API_PATH_PATTERN]: {
          origin: apiOrigin,
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CACHE_POLICIES[SITE_BEHAVIOURS.api.cachePolicy],
          compress: SITE_BEHAVIOURS.api.compress,
          // Cookies, query strings and headers reach the API; Host must be the API's own.
          originRequestPolicy: apiOriginRequests,
          responseHeadersPolicy: securityHeaders,
        },
      },
    });

    // Two uploads, never pruned: files of earlier builds stay, so a tab opened before a deploy
    // still loads the chunks its index.html named (docs/runbook.md#deploy), until the asset
    // cleanup below deletes those no release has named for its grace period. First the hashed
    // assets, cached for a year; then the pages that name them, revalidated on every load, with
    // the invalidation. Source maps (vite's `sourcemap: 'hidden'`) stay on the build machine:
    // served at guessable `/assets/*.js.map` they would hand out the SPA's source. Left out of the
    // asset, and out of the copy to the bucket should one ever be in it.
    const source = Source.asset(props.siteDir, { exclude: SOURCE_MAPS });
    const deployLogs = new LogGroup(this, 'DeployLogs', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const assetFiles = `${SITE_ASSETS_PREFIX}*`;
    this.assetsDeployment = new BucketDeployment(this, 'DeployAssets', {
      sources: [source],
      exclude: ['*'],
      include: [assetFiles],
      destinationBucket: this.bucket,
      prune: false,
      cacheControl: [CacheControl.fromString(SITE_CACHE_CONTROL.assets)],
      memoryLimit: 512,
      logGroup: deployLogs,
    });
    this.deployment = new BucketDeployment(this, 'Deploy', {
      sources: [source],
      exclude: [assetFiles, ...SOURCE_MAPS],
      destinationBucket: this.bucket,
      prune: false,
      cacheControl: [CacheControl.fromString(SITE_CACHE_CONTROL.pages)],
      distribution: this.distribution,
      distributionPaths: ['/*'],
      memoryLimit: 512,
      logGroup: deployLogs,
    });
    // the pages go up only once every asset they name is in the bucket
    this.deployment.node.addDependency(this.assetsDeployment);
    // Old releases' assets go once no release has named them for a while. Not a lifecycle rule:
    // S3 ages a file from its upload, and a file of a release that stays live for months would
    // expire under it; the cleanup knows the release's own files (the build's, listed here).
    this.assetCleanup = new SiteAssetCleanup(this, 'AssetCleanup', {
      bucket: this.bucket,
      prefix: SITE_ASSETS_PREFIX,
      currentAssets: releaseAssets(props.siteDir, SITE_ASSETS_PREFIX, (name) => name.endsWith('.map')),
      after: [this.assetsDeployment, this.deployment],
    });
    // the cleanup's record of when each file was last current is no file of the site
    this.bucket.addToResourcePolicy(
      new PolicyStatement({
        effect: Effect.DENY,
        principals: [new ServicePrincipal('cloudfront.amazonaws.com')],
        actions: ['s3:GetObject'],
        resources: [this.bucket.arnForObjects(ASSET_HISTORY_KEY)],
      }),
    );

    this.acknowledgeNagFindings(Boolean(props.webAclArn), Boolean(props.customDomain));
  }

  /** cdk-nag findings that are accepted here, each with the reason it is acceptable. */
  private acknowledgeNagFindings(hasWebAcl: boolean, hasCustomDomain: boolean): void {
    Validations.of(this.logBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log bucket itself; logging it into itself would log its own log writes.',
    });
    if (!hasCustomDomain)
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'The distribution uses the default *.cloudfront.net certificate, with which CloudFront cannot pin a minimum TLS version; a custom domain with an ACM certificate (-c domainName, TLSv1.2_2021) lifts this.',
      });
    Validations.of(this.distribution).acknowledge(
      { id: 'AwsSolutions-CFR1', reason: 'No geo restriction: learners may sign in from any country.' },
      {
        id: 'AwsSolutions-CFR3',
        reason:
          'Legacy standard logging is off on purpose: it always records query strings (the reset link token). Access logs come from logging v2 with cs-uri-query left out (CloudFrontAccessLogs).',
      },
    );
    if (!hasWebAcl) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR2',
        reason:
          'Synthesized without an AWS account, so the us-east-1 WAF companion stack cannot be linked (cross-region reference); a deploy always links it (infra/app.ts).',
      });
    }

    // BucketDeployment's provider is a CDK-managed singleton Lambda at stack level.
    const stack = Stack.of(this);
    const provider = stack.node.children.find((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (!provider) return;
    // cdk-nag names a finding by the resolved text: literals when the stack has an env, else <AWS::…>.
    const pseudo = (value: string, name: string) => (Token.isUnresolved(value) ? `<AWS::${name}>` : value);
    const siteBucketId = stack.getLogicalId(this.bucket.node.defaultChild as CfnBucket);
    const managedBy = 'Role and policy of the aws-cdk-lib BucketDeployment provider (CDK-managed, deploy time only)';
    const runtimeByCdk = 'The runtime of the BucketDeployment provider is chosen and updated by aws-cdk-lib.';
    Validations.of(provider).acknowledge(
      { id: 'AwsSolutions-L1', reason: runtimeByCdk },
      { id: 'Serverless-LambdaLatestVersion', reason: runtimeByCdk },
      {
        id: 'Serverless-LambdaDLQ',
        reason:
          'The CDK-managed BucketDeployment provider: CloudFormation invokes it synchronously, and a failed copy fails the deployment.',
      },
      {
        id: 'Serverless-LambdaTracing',
        reason: 'The CDK-managed BucketDeployment provider runs at deploy time only, where the CloudFormation events show what failed.',
      },
      {
        // Managed policy ARNs always carry the partition pseudo parameter, whatever the stack env.
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: `${managedBy}: the managed policy only lets it write its logs.`,
      },
      ...['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*'].map((action) => ({
        id: `AwsSolutions-IAM5[Action::${action}]`,
        reason: `${managedBy}: it copies the build from the CDK asset bucket to the site bucket (aws-cdk-lib grants it the delete actions too; nothing here prunes).`,
      })),
      {
        id: `AwsSolutions-IAM5[Resource::arn:${pseudo(stack.partition, 'Partition')}:s3:::cdk-hnb659fds-assets-${pseudo(stack.account, 'AccountId')}-${pseudo(stack.region, 'Region')}/*]`,
        reason: `${managedBy}: reads the zipped build from the CDK bootstrap asset bucket.`,
      },
      {
        id: `AwsSolutions-IAM5[Resource::<${siteBucketId}.Arn>/*]`,
        reason: `${managedBy}: writes objects of the site bucket only.`,
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: `${managedBy}: cloudfront:CreateInvalidation/GetInvalidation, which it requests without resource scoping.`,
      },
    );
  }
}
