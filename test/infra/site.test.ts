import { runInNewContext } from 'node:vm';
import { Match } from 'aws-cdk-lib/assertions';
import { AllowedMethods, CachePolicy } from 'aws-cdk-lib/aws-cloudfront';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, SPA_FALLBACK_FUNCTION } from '../../infra/constructs/site';
import { asList, type SynthesizedStack, synthStack, TEST_API_ORIGIN } from './synth-stack';
import { asObject, asObjects, asStrings, at, resourceOf, resourcesOf } from './template';

// This file's stack also takes the optional settings (domain identity, allowlist) and a region.
let s: SynthesizedStack;
beforeAll(() => {
  s = synthStack({
    mailFrom: 'hello@example.org',
    sesDomain: 'example.org',
    emailAllowlist: 'a@example.org',
    // Region-bound, as `cdk synth` makes it: cdk-nag then names some findings with literals.
    env: { region: 'eu-west-1' },
  });
});

const distributionConfig = () =>
  asObject(
    resourceOf(s.template, 'AWS::CloudFront::Distribution', s.idOf(s.stack.site.distribution)).Properties.DistributionConfig,
    'DistributionConfig',
  );

describe('site bucket', () => {
  it('is private, encrypted and refuses plain HTTP', () => {
    const bucket = resourceOf(s.template, 'AWS::S3::Bucket', s.idOf(s.stack.site.bucket));
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(at(bucket.Properties, 'BucketEncryption', 'ServerSideEncryptionConfiguration', 0)).toMatchObject({
      ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' },
    });
    s.template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: s.idOf(s.stack.site.bucket) },
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
  });

  it('is readable by this distribution only (Origin Access Control)', () => {
    s.template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    s.template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: s.idOf(s.stack.site.bucket) },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: 's3:GetObject',
            Principal: { Service: 'cloudfront.amazonaws.com' },
            Condition: { StringEquals: { 'AWS:SourceArn': Match.anyValue() } },
          }),
        ]),
      },
    });
    const s3Origin = asObjects(distributionConfig().Origins, 'Origins').find((o) => o.S3OriginConfig)!;
    expect(s3Origin.DomainName).toEqual({ 'Fn::GetAtt': [s.idOf(s.stack.site.bucket), 'RegionalDomainName'] });
    expect(s3Origin.OriginAccessControlId).toBeDefined();
  });
});

describe('distribution', () => {
  it('serves the default behaviour from S3 over HTTPS, with the SPA fallback function', () => {
    const config = distributionConfig();
    const s3Origin = asObjects(config.Origins, 'Origins').find((o) => o.S3OriginConfig)!;
    const functions = s.template.findResources('AWS::CloudFront::Function', {
      Properties: { FunctionCode: SPA_FALLBACK_FUNCTION, FunctionConfig: { Runtime: 'cloudfront-js-2.0' } },
    });
    expect(Object.keys(functions)).toHaveLength(1);
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.DefaultCacheBehavior).toMatchObject({
      TargetOriginId: s3Origin.Id,
      ViewerProtocolPolicy: 'redirect-to-https',
      FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [Object.keys(functions)[0], 'FunctionARN'] } }],
    });
  });

  it('forwards /api/* to the HTTP API uncached, with cookies, query strings and headers but not Host', () => {
    const config = distributionConfig();
    const api = asObjects(config.CacheBehaviors, 'CacheBehaviors').find((b) => b.PathPattern === '/api/*')!;
    expect(api).toMatchObject({
      CachePolicyId: CachePolicy.CACHING_DISABLED.cachePolicyId,
      ViewerProtocolPolicy: 'https-only',
    });
    const policies = resourcesOf(s.template, 'AWS::CloudFront::OriginRequestPolicy');
    const [policyId, policy] = Object.entries(policies)[0];
    expect(api.OriginRequestPolicyId).toEqual({ Ref: policyId });
    const policyConfig = asObject(policy.Properties.OriginRequestPolicyConfig, 'OriginRequestPolicyConfig');
    expect(policyConfig.CookiesConfig).toEqual({ CookieBehavior: 'all' });
    expect(policyConfig.QueryStringsConfig).toEqual({ QueryStringBehavior: 'all' });
    const headersConfig = asObject(policyConfig.HeadersConfig, 'HeadersConfig');
    expect(headersConfig.HeaderBehavior).toBe('whitelist');
    expect(headersConfig.Headers).toEqual(expect.arrayContaining(['Origin', 'Content-Type', 'CloudFront-Viewer-Address']));
    expect(asStrings(headersConfig.Headers, 'Headers').map((h) => h.toLowerCase())).not.toContain('host');
    expect(asStrings(api.AllowedMethods, 'AllowedMethods').sort()).toEqual([...AllowedMethods.ALLOW_ALL.methods].sort());
    const apiOrigin = asObjects(config.Origins, 'Origins').find((o) => o.Id === api.TargetOriginId);
    // the API's own domain, with CloudFront's client certificate (test/infra/custom-domain.test.ts)
    expect(apiOrigin).toMatchObject({
      DomainName: TEST_API_ORIGIN.domainName,
      CustomOriginConfig: {
        OriginProtocolPolicy: 'https-only',
        OriginMtlsConfig: { ClientCertificateArn: TEST_API_ORIGIN.clientCertificateArn },
      },
    });
  });

  it('has no custom error responses, so the API’s JSON 403/404 reach the browser unchanged', () => {
    // Error responses are distribution-wide: a 403/404 → /index.html rule would also rewrite
    // `{"error":"admin_required"}` or `{"error":"not_found"}` from /api/* into a 200 HTML page.
    expect(distributionConfig().CustomErrorResponses).toBeUndefined();
  });

  it('has no legacy standard logging (it would keep the reset link token in the query string)', () => {
    expect(distributionConfig().Logging).toBeUndefined();
  });
});

describe('SPA fallback function', () => {
  // The exact code CloudFront runs (cloudfront-js-2.0 accepts this ES5 subset as is).
  const handler = runInNewContext(`${SPA_FALLBACK_FUNCTION}; handler;`) as (event: { request: { uri: string } }) => { uri: string };
  const uriFor = (uri: string) => handler({ request: { uri } }).uri;

  it('sends client routes to /index.html', () => {
    expect(uriFor('/')).toBe('/index.html');
    expect(uriFor('/admin/users')).toBe('/index.html');
    expect(uriFor('/modules/week-1')).toBe('/index.html');
    expect(uriFor('/reset-password')).toBe('/index.html');
    expect(uriFor('/certificate')).toBe('/index.html');
    expect(uriFor('/certificates/ABCD-EFGH-JKMN/extra')).toBe('/index.html');
  });

  it('sends the certificate check to /certificates.html, the app with the check as its link-preview card', () => {
    expect(uriFor('/certificates')).toBe('/certificates.html');
    expect(uriFor('/certificates/')).toBe('/certificates.html');
    expect(uriFor('/certificates/ABCD-EFGH-JKMN')).toBe('/certificates.html');
    expect(uriFor('/certificates/abcd efgh jkmn')).toBe('/certificates.html');
  });

  it('leaves files alone', () => {
    expect(uriFor('/index.html')).toBe('/index.html');
    expect(uriFor('/assets/index-Ab12.js')).toBe('/assets/index-Ab12.js');
    expect(uriFor('/favicon.svg')).toBe('/favicon.svg');
  });
});

describe('security headers', () => {
  it('sends HSTS, the SPA CSP, nosniff, DENY framing and a referrer policy on both behaviours', () => {
    const policies = resourcesOf(s.template, 'AWS::CloudFront::ResponseHeadersPolicy');
    expect(Object.keys(policies)).toHaveLength(1);
    const [id, policy] = Object.entries(policies)[0];
    const headers = asObject(at(policy.Properties, 'ResponseHeadersPolicyConfig', 'SecurityHeadersConfig'), 'SecurityHeadersConfig');
    expect(headers.StrictTransportSecurity).toMatchObject({ AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Override: true });
    expect(at(headers, 'ContentSecurityPolicy', 'ContentSecurityPolicy')).toBe(CONTENT_SECURITY_POLICY);
    expect(headers.ContentTypeOptions).toEqual({ Override: true });
    expect(headers.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
    expect(at(headers, 'ReferrerPolicy', 'ReferrerPolicy')).toBe('strict-origin-when-cross-origin');
    const config = distributionConfig();
    expect(at(config, 'DefaultCacheBehavior', 'ResponseHeadersPolicyId')).toEqual({ Ref: id });
    expect(at(config, 'CacheBehaviors', 0, 'ResponseHeadersPolicyId')).toEqual({ Ref: id });
  });

  it('has a CSP that allows only own scripts and no framing', () => {
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "object-src 'none'",
    ]) {
      expect(CONTENT_SECURITY_POLICY.split('; ')).toContain(directive);
    }
    expect(CONTENT_SECURITY_POLICY).not.toContain("'unsafe-eval'");
  });
});

describe('deployment of the built SPA', () => {
  it('uploads the build to the bucket and invalidates the distribution', () => {
    s.template.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketName: { Ref: s.idOf(s.stack.site.bucket) },
      DistributionId: { Ref: s.idOf(s.stack.site.distribution) },
      DistributionPaths: ['/*'],
      // source maps are never copied to the bucket (nor served at /assets/*.js.map)
      Exclude: Match.arrayWith(['*.map']),
    });
  });

  it('keeps the files of earlier builds: no upload prunes, so a tab opened before a deploy still loads its chunks', () => {
    const uploads = resourcesOf(s.template, 'Custom::CDKBucketDeployment');
    expect(Object.keys(uploads)).toHaveLength(2);
    for (const [id, upload] of Object.entries(uploads)) expect(upload.Properties.Prune, id).toBe(false);
  });

  it('caches the hashed assets for a year and has every other file (index.html) revalidated on each load', () => {
    // the custom resource a BucketDeployment adds (CustomResource-<memory>MiB; not its CustomResourceHandler)
    const uploadOf = (deployment: IConstruct) =>
      s.idOf(deployment.node.children.find((child) => child.node.id.startsWith('CustomResource-')) ?? deployment);
    const assets = resourceOf(s.template, 'Custom::CDKBucketDeployment', uploadOf(s.stack.site.assetsDeployment));
    expect(assets.Properties).toMatchObject({
      Exclude: ['*'],
      Include: ['assets/*'],
      SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' },
    });
    const pages = resourceOf(s.template, 'Custom::CDKBucketDeployment', uploadOf(s.stack.site.deployment));
    expect(pages.Properties).toMatchObject({ Exclude: ['assets/*', '*.map'], SystemMetadata: { 'cache-control': 'no-cache' } });
    expect(pages.Properties).not.toHaveProperty('Include');
    // the pages name the assets: they go up after them
    expect(asList(pages.DependsOn)).toEqual(expect.arrayContaining([uploadOf(s.stack.site.assetsDeployment)]));
  });

  it('fails loudly when the site directory does not exist (build the web first)', () => {
    expect(() => synthStack({ siteDir: '/nonexistent/web/dist' })).toThrow(/nonexistent/);
  });
});

describe('context settings', () => {
  it('verifies the SES domain when one is given, and mails from the configured sender', () => {
    s.template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'example.org' });
    const fn = resourceOf(s.template, 'AWS::Lambda::Function', s.idOf(s.stack.functions.auth.fn));
    expect(at(fn.Properties, 'Environment', 'Variables')).toMatchObject({
      MAIL_FROM: 'hello@example.org',
      EMAIL_ALLOWLIST: 'a@example.org',
    });
  });

  it('still passes cdk-nag', () => {
    const report = new AwsSolutionsChecks().validateScope(s.stack);
    expect(report.violations.map((v) => v.ruleName)).toEqual([]);
  });
});
