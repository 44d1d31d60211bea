import { CachePolicy } from 'aws-cdk-lib/aws-cloudfront';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  API_PATH_PATTERN,
  MANAGED_CACHE_POLICIES,
  ROUTE_THROTTLES,
  securityHeaderValues,
  SITE_BEHAVIOURS,
  STAGE_API_THROTTLES,
} from '../../infra/edge-behaviour';
import { stageSettings } from '../../infra/stage';
import { type SynthesizedStack, synthStack } from './synth-stack';
import { asObject, asObjects, at, resourceList } from './template';

/**
 * The local server behaves by infra/edge-behaviour.ts: these cases show that the deployed
 * distribution and API stage say the same, read back from the synthesized template.
 */
let s: SynthesizedStack;
beforeAll(() => {
  s = synthStack();
});

const distributionConfig = () =>
  asObject(at(resourceList(s.template, 'AWS::CloudFront::Distribution')[0].Properties, 'DistributionConfig'), 'DistributionConfig');

describe('the distribution, as the local CloudFront reads it', () => {
  it('names the managed cache policies by the ids CDK gives them', () => {
    expect(MANAGED_CACHE_POLICIES.CachingOptimized.id).toBe(CachePolicy.CACHING_OPTIMIZED.cachePolicyId);
    expect(MANAGED_CACHE_POLICIES.CachingDisabled.id).toBe(CachePolicy.CACHING_DISABLED.cachePolicyId);
  });

  it('has the two behaviours with their cache policy and compression', () => {
    const config = distributionConfig();
    expect(config.DefaultCacheBehavior).toMatchObject({
      CachePolicyId: MANAGED_CACHE_POLICIES[SITE_BEHAVIOURS.site.cachePolicy].id,
      Compress: SITE_BEHAVIOURS.site.compress,
    });
    const behaviours = asObjects(config.CacheBehaviors, 'CacheBehaviors');
    expect(behaviours.map((b) => b.PathPattern)).toEqual([API_PATH_PATTERN]);
    expect(behaviours[0]).toMatchObject({
      CachePolicyId: MANAGED_CACHE_POLICIES[SITE_BEHAVIOURS.api.cachePolicy].id,
      Compress: SITE_BEHAVIOURS.api.compress,
    });
  });

  it('sends, on both behaviours, the security headers the local server sends', () => {
    const [policy] = resourceList(s.template, 'AWS::CloudFront::ResponseHeadersPolicy');
    const headers = asObject(at(policy.Properties, 'ResponseHeadersPolicyConfig', 'SecurityHeadersConfig'), 'SecurityHeadersConfig');
    const hsts = asObject(headers.StrictTransportSecurity, 'StrictTransportSecurity');
    const overridden = ['StrictTransportSecurity', 'ContentSecurityPolicy', 'ContentTypeOptions', 'FrameOptions', 'ReferrerPolicy'];
    for (const name of overridden) expect(at(headers, name, 'Override'), name).toBe(true);
    expect({
      'Strict-Transport-Security': `max-age=${String(hsts.AccessControlMaxAgeSec)}${hsts.IncludeSubdomains ? '; includeSubDomains' : ''}`,
      'Content-Security-Policy': at(headers, 'ContentSecurityPolicy', 'ContentSecurityPolicy'),
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': at(headers, 'FrameOptions', 'FrameOption'),
      'Referrer-Policy': at(headers, 'ReferrerPolicy', 'ReferrerPolicy'),
    }).toEqual(securityHeaderValues());
  });
});

describe('the API stage, as the local API Gateway reads it', () => {
  it("has prod's default route throttle and every per-route one", () => {
    const stage = resourceList(s.template, 'AWS::ApiGatewayV2::Stage')[0].Properties;
    expect(stage.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: STAGE_API_THROTTLES.prod.rateLimit,
      ThrottlingBurstLimit: STAGE_API_THROTTLES.prod.burstLimit,
    });
    expect(stage.RouteSettings).toEqual(
      Object.fromEntries(
        Object.entries(ROUTE_THROTTLES).map(([key, limit]) => [
          key,
          { ThrottlingRateLimit: limit.rateLimit, ThrottlingBurstLimit: limit.burstLimit },
        ]),
      ),
    );
    expect(stageSettings('dev').apiThrottle).toEqual(STAGE_API_THROTTLES.dev);
  });
});
