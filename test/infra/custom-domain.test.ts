import { beforeAll, describe, expect, it } from 'vitest';
import { nagPacks } from '../../infra/nag-packs';
import { type SynthesizedStack, synthStack } from './synth-stack';
import { at, resourceOf, resourcesOf } from './template';

/**
 * The custom domains (docs/runbook.md#custom-domain): the site on its own name answers TLS 1.2 or
 * later only, and the API on its own name is reached by CloudFront there, with the execute-api
 * endpoint off so nobody calls the API around CloudFront. Without them, the defaults stay.
 */
const SITE_CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/site-certificate';
const API_CERTIFICATE = 'arn:aws:acm:eu-west-1:123456789012:certificate/api-certificate';
let custom: SynthesizedStack;
let plain: SynthesizedStack;
beforeAll(() => {
  custom = synthStack({
    customDomain: { domainName: 'learn.example.org', certificateArn: SITE_CERTIFICATE },
    apiCustomDomain: { domainName: 'api.learn.example.org', certificateArn: API_CERTIFICATE },
  });
  plain = synthStack();
});

const distributionConfig = (s: SynthesizedStack) =>
  resourceOf(s.template, 'AWS::CloudFront::Distribution', s.idOf(s.stack.site.distribution)).Properties.DistributionConfig as Record<
    string,
    unknown
  >;
const httpApi = (s: SynthesizedStack) => resourceOf(s.template, 'AWS::ApiGatewayV2::Api', s.idOf(s.stack.api.api)).Properties;

describe('the site on its own domain', () => {
  it('answers on that name with the us-east-1 certificate, TLS 1.2 or later only', () => {
    expect(distributionConfig(custom)).toMatchObject({
      Aliases: ['learn.example.org'],
      ViewerCertificate: { AcmCertificateArn: SITE_CERTIFICATE, MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' },
    });
  });

  it('puts that name in the links and the passkeys origin (APP_URL), and outputs where its DNS record points', () => {
    const parameter = resourceOf(custom.template, 'AWS::SSM::Parameter', custom.idOf(custom.stack.appUrlParameter));
    expect(parameter.Properties.Value).toBe('https://learn.example.org');
    const outputs = custom.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.SiteUrl.Value).toBe('https://learn.example.org');
    expect(outputs.SiteDnsTarget.Value).toEqual({ 'Fn::GetAtt': [custom.idOf(custom.stack.site.distribution), 'DomainName'] });
  });

  it('passes cdk-nag without the minimum-TLS acknowledgement the default certificate needs', () => {
    // without the TLS 1.2 minimum AwsSolutions-CFR4 would report the distribution here
    for (const pack of nagPacks()) expect(pack.validateScope(custom.stack).violations.map((v) => v.ruleName)).toEqual([]);
  });
});

describe('the API on its own domain', () => {
  it('turns the execute-api endpoint off and serves the stage on its name with TLS 1.2', () => {
    expect(httpApi(custom).DisableExecuteApiEndpoint).toBe(true);
    const domains = Object.values(resourcesOf(custom.template, 'AWS::ApiGatewayV2::DomainName'));
    expect(domains.map((domain) => domain.Properties)).toEqual([
      {
        DomainName: 'api.learn.example.org',
        DomainNameConfigurations: [{ CertificateArn: API_CERTIFICATE, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }],
      },
    ]);
    const mappings = Object.values(resourcesOf(custom.template, 'AWS::ApiGatewayV2::ApiMapping'));
    expect(mappings).toHaveLength(1);
    expect(mappings[0].Properties).toMatchObject({ ApiId: { Ref: custom.idOf(custom.stack.api.api) }, Stage: '$default' });
    // created once the stage exists
    expect(mappings[0].DependsOn).toEqual([custom.idOf(custom.stack.api.stage)]);
  });

  it("is CloudFront's /api/* origin there, and its DNS target is an output", () => {
    const origins = at(distributionConfig(custom), 'Origins') as Array<{ DomainName: unknown; CustomOriginConfig?: unknown }>;
    expect(origins.filter((origin) => origin.CustomOriginConfig).map((origin) => origin.DomainName)).toEqual(['api.learn.example.org']);
    const outputs = custom.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.ApiDnsTarget.Value).toEqual({
      'Fn::GetAtt': [expect.stringMatching(/Domain/) as unknown, 'RegionalDomainName'],
    });
  });
});

describe('reserved concurrency of the API functions', () => {
  it('is set on each API function when asked (-c apiReservedConcurrency), and on none by default', () => {
    const reserved = synthStack({ apiReservedConcurrency: 50 });
    for (const s of [reserved, plain])
      for (const group of ['auth', 'passkeys', 'learner', 'admin'] as const) {
        const fn = resourceOf(s.template, 'AWS::Lambda::Function', s.idOf(s.stack.functions[group].fn));
        expect(fn.Properties.ReservedConcurrentExecutions, group).toBe(s === reserved ? 50 : undefined);
      }
    const reminders = resourceOf(reserved.template, 'AWS::Lambda::Function', reserved.idOf(reserved.stack.functions.reminderWorker.fn));
    expect(reminders.Properties.ReservedConcurrentExecutions).toBeUndefined();
  });
});

describe('without custom domains', () => {
  it('keeps the default certificate, the execute-api endpoint as the origin, and no DNS outputs', () => {
    expect(distributionConfig(plain).Aliases).toBeUndefined();
    expect(httpApi(plain).DisableExecuteApiEndpoint).toBe(false);
    expect(Object.keys(resourcesOf(plain.template, 'AWS::ApiGatewayV2::DomainName'))).toEqual([]);
    const outputs = plain.template.toJSON().Outputs as Record<string, unknown>;
    expect(Object.keys(outputs)).not.toContain('SiteDnsTarget');
    expect(Object.keys(outputs)).not.toContain('ApiDnsTarget');
  });
});
