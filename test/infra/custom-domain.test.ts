import { beforeAll, describe, expect, it } from 'vitest';
import { parseS3Uri } from '../../infra/constructs/http-api';
import { nagPacks } from '../../infra/nag-packs';
import { checkPreviousSiteOrigins } from '../../infra/stack';
import { STAGES } from '../../infra/stage';
import { type SynthesizedStack, synthStack, TEST_API_ORIGIN } from './synth-stack';
import { at, resourceOf, resourcesOf } from './template';

/**
 * The custom domains (docs/runbook.md#custom-domain, #api-origin): the site on its own name
 * answers TLS 1.2 or later only; the API on its own name is reached by CloudFront there with a
 * client certificate (mutual TLS), and the execute-api endpoint is off, so nobody calls the API
 * around CloudFront and its WAF. prod has no other origin; dev keeps the execute-api address.
 */
const SITE_CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/site-certificate';
let custom: SynthesizedStack;
/** dev without an API domain: the execute-api address. */
let plain: SynthesizedStack;
beforeAll(() => {
  custom = synthStack({ customDomain: { domainName: 'learn.example.org', certificateArn: SITE_CERTIFICATE } });
  plain = synthStack({ stage: 'dev', apiCustomDomain: undefined });
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

describe('moving the site to its own domain (docs/runbook.md#custom-domain)', () => {
  const OLD_ADDRESS = 'https://d111111abcdef8.cloudfront.net';
  const apiEnvironment = (s: SynthesizedStack, group: 'auth' | 'passkeys' | 'learner' | 'admin') =>
    at(resourceOf(s.template, 'AWS::Lambda::Function', s.idOf(s.stack.functions[group].fn)).Properties, 'Environment', 'Variables');

  it('phase one serves the new name while the API accepts pages still open on the old address; phase two the new name only', () => {
    const moving = synthStack({
      customDomain: { domainName: 'learn.example.org', certificateArn: SITE_CERTIFICATE },
      previousSiteOrigins: [OLD_ADDRESS],
    });
    expect(distributionConfig(moving).Aliases).toEqual(['learn.example.org']);
    expect(resourceOf(moving.template, 'AWS::SSM::Parameter', moving.idOf(moving.stack.appUrlParameter)).Properties.Value).toBe(
      'https://learn.example.org',
    );
    for (const group of ['auth', 'passkeys', 'learner', 'admin'] as const)
      expect(apiEnvironment(moving, group), group).toMatchObject({ PREVIOUS_SITE_ORIGINS: OLD_ADDRESS });
    // phase two (and by default): the site's name only
    for (const group of ['auth', 'passkeys', 'learner', 'admin'] as const)
      expect(apiEnvironment(custom, group), group).not.toHaveProperty('PREVIOUS_SITE_ORIGINS');
  });

  it('refuses an old address that is not a bare https origin (it would never match an Origin header)', () => {
    for (const origin of [`${OLD_ADDRESS}/`, 'd111111abcdef8.cloudfront.net', 'http://d111111abcdef8.cloudfront.net'])
      expect(() => checkPreviousSiteOrigins([origin]), origin).toThrow(/previousSiteOrigins must be https origins/);
    expect(checkPreviousSiteOrigins([OLD_ADDRESS])).toEqual([OLD_ADDRESS]);
  });
});

const apiOrigin = (s: SynthesizedStack) =>
  (at(distributionConfig(s), 'Origins') as Array<{ DomainName: unknown; CustomOriginConfig?: Record<string, unknown> }>).filter(
    (origin) => origin.CustomOriginConfig,
  );

describe('the API on its own domain', () => {
  it('turns the execute-api endpoint off and serves the stage on its name with TLS 1.2 and mutual TLS', () => {
    expect(httpApi(custom).DisableExecuteApiEndpoint).toBe(true);
    const domains = Object.values(resourcesOf(custom.template, 'AWS::ApiGatewayV2::DomainName'));
    expect(domains.map((domain) => domain.Properties)).toEqual([
      {
        DomainName: TEST_API_ORIGIN.domainName,
        DomainNameConfigurations: [{ CertificateArn: TEST_API_ORIGIN.certificateArn, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }],
        // a caller without a certificate of this CA is refused in the handshake, before any route's throttle
        MutualTlsAuthentication: { TruststoreUri: TEST_API_ORIGIN.truststoreUri, TruststoreVersion: TEST_API_ORIGIN.truststoreVersion },
      },
    ]);
    const mappings = Object.values(resourcesOf(custom.template, 'AWS::ApiGatewayV2::ApiMapping'));
    expect(mappings).toHaveLength(1);
    expect(mappings[0].Properties).toMatchObject({ ApiId: { Ref: custom.idOf(custom.stack.api.api) }, Stage: '$default' });
    // created once the stage exists
    expect(mappings[0].DependsOn).toEqual([custom.idOf(custom.stack.api.stage)]);
  });

  it("is CloudFront's /api/* origin there, reached with CloudFront's client certificate, and its DNS target is an output", () => {
    expect(apiOrigin(custom)).toEqual([
      expect.objectContaining({
        DomainName: TEST_API_ORIGIN.domainName,
        CustomOriginConfig: expect.objectContaining({
          OriginProtocolPolicy: 'https-only',
          OriginMtlsConfig: { ClientCertificateArn: TEST_API_ORIGIN.clientCertificateArn },
        }) as unknown,
      }),
    ]);
    const outputs = custom.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.ApiDnsTarget.Value).toEqual({
      'Fn::GetAtt': [expect.stringMatching(/Domain/) as unknown, 'RegionalDomainName'],
    });
  });

  it('is the only origin prod accepts: no domain and no execute-api address refuses to synthesize', () => {
    expect(() => synthStack({ apiCustomDomain: undefined })).toThrow(/its own domain behind mutual TLS/);
  });

  it('reads the truststore as s3://bucket/key and refuses anything else', () => {
    expect(parseS3Uri('s3://career-origin-truststore/certs/origin-ca.pem')).toEqual({
      bucket: 'career-origin-truststore',
      key: 'certs/origin-ca.pem',
    });
    for (const uri of ['https://career-origin-truststore.s3.amazonaws.com/ca.pem', 's3://career-origin-truststore', 's3://x/ca.pem'])
      expect(() => parseS3Uri(uri), uri).toThrow(/s3:\/\/bucket\/key/);
  });
});

describe('reserved concurrency of the API functions', () => {
  it('is set on each API function when asked (-c apiReservedConcurrency), and on none by default', () => {
    const reserved = synthStack({ apiReservedConcurrency: 50 });
    const standard = synthStack();
    for (const s of [reserved, standard])
      for (const group of ['auth', 'passkeys', 'learner', 'admin'] as const) {
        const fn = resourceOf(s.template, 'AWS::Lambda::Function', s.idOf(s.stack.functions[group].fn));
        expect(fn.Properties.ReservedConcurrentExecutions, group).toBe(s === reserved ? 50 : undefined);
      }
    const reminders = resourceOf(reserved.template, 'AWS::Lambda::Function', reserved.idOf(reserved.stack.functions.reminderWorker.fn));
    expect(reminders.Properties.ReservedConcurrentExecutions).toBeUndefined();
  });
});

describe('the execute-api address', () => {
  it('is off unless the stage allows it (prod does not, dev does), and off wherever the API has its own domain', () => {
    expect(STAGES.prod.executeApiEndpoint).toBe(false);
    expect(STAGES.dev.executeApiEndpoint).toBe(true);
    expect(httpApi(synthStack()).DisableExecuteApiEndpoint).toBe(true);
    const dev = synthStack({ stage: 'dev' });
    expect(httpApi(dev).DisableExecuteApiEndpoint).toBe(true);
    expect(apiOrigin(dev).map((origin) => origin.DomainName)).toEqual([TEST_API_ORIGIN.domainName]);
  });

  it("is dev's origin without an API domain (the stage's setting), with the default certificate and no DNS outputs", () => {
    expect(httpApi(plain).DisableExecuteApiEndpoint).toBe(false);
    expect(apiOrigin(plain).map((origin) => origin.DomainName)).toEqual([
      { 'Fn::Select': [2, { 'Fn::Split': ['/', { 'Fn::GetAtt': [plain.idOf(plain.stack.api.api), 'ApiEndpoint'] }] }] },
    ]);
    // no client certificate for execute-api: it cannot require one
    expect(apiOrigin(plain)[0].CustomOriginConfig).not.toHaveProperty('OriginMtlsConfig');
    expect(distributionConfig(plain).Aliases).toBeUndefined();
    expect(Object.keys(resourcesOf(plain.template, 'AWS::ApiGatewayV2::DomainName'))).toEqual([]);
    const outputs = plain.template.toJSON().Outputs as Record<string, unknown>;
    expect(Object.keys(outputs)).not.toContain('SiteDnsTarget');
    expect(Object.keys(outputs)).not.toContain('ApiDnsTarget');
    // the setting, not the stage's name, decides
    expect(() => synthStack({ stage: 'dev', apiCustomDomain: undefined, executeApiEndpoint: false })).toThrow(/-c executeApiEndpoint=true/);
  });

  it('can be turned on for prod too, knowingly (-c executeApiEndpoint=true)', () => {
    expect(() => synthStack({ apiCustomDomain: undefined })).toThrow(/its own domain behind mutual TLS/);
    const open = synthStack({ apiCustomDomain: undefined, executeApiEndpoint: true });
    expect(httpApi(open).DisableExecuteApiEndpoint).toBe(false);
  });
});
