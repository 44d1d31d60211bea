import { beforeAll, describe, expect, it } from 'vitest';
import { UNISSUED_CERTIFICATE_CODE } from '../../infra/canary/site-check';
import { CANARY_ARTIFACT_DAYS } from '../../infra/constructs/site-canary';
import { privateLoggedBucket, type SynthesizedStack, synthStack } from './synth-stack';
import { asObjects, asString, at, resourceList, resourceOf, resourcesOf } from './template';

/**
 * The site canary (docs/runbook.md#site-canary): CloudWatch Synthetics runs the checks of
 * infra/canary/site-check.ts through CloudFront every 5 minutes, its runs are alarmed on, and its
 * artifacts stay private, encrypted and expire.
 */
let s: SynthesizedStack;
beforeAll(() => {
  s = synthStack();
});

const canary = () => {
  const canaries = resourceList(s.template, 'AWS::Synthetics::Canary');
  expect(canaries).toHaveLength(1);
  return canaries[0].Properties;
};

describe('the site canary', () => {
  it('runs the bundled site checks every 5 minutes against the distribution, with a runtime that is not deprecated', () => {
    const props = canary();
    expect(at(props, 'Schedule', 'Expression')).toBe('rate(5 minutes)');
    expect(props.RuntimeVersion).toBe('syn-nodejs-puppeteer-13.0');
    expect(props.StartCanaryAfterCreation).toBe(true);
    expect(at(props, 'Code', 'Handler')).toBe('index.handler');
    const script = asString(at(props, 'Code', 'Script'), 'Script');
    for (const part of ['/api/health', '/api/certificates/', UNISSUED_CERTIFICATE_CODE]) expect(script).toContain(part);
    expect(script).toMatch(/exports\.handler|handler: \(\) => handler/);
    expect(at(props, 'RunConfig', 'EnvironmentVariables', 'SITE_URL')).toEqual({
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [s.idOf(s.stack.site.distribution), 'DomainName'] }]],
    });
  });

  it('keeps its artifacts in a private, encrypted bucket that logs its access and expires them', () => {
    const bucketId = s.idOf(s.stack.siteCanary.artifacts);
    const location = JSON.stringify(at(canary(), 'ArtifactS3Location'));
    expect(location).toContain(bucketId);
    expect(at(canary(), 'ArtifactConfig', 'S3Encryption', 'EncryptionMode')).toBe('SSE_S3');
    const bucket = resourceOf(s.template, 'AWS::S3::Bucket', bucketId);
    expect(bucket.Properties).toMatchObject(privateLoggedBucket(s, 'canary-artifacts/'));
    const rules = asObjects(at(bucket.Properties, 'LifecycleConfiguration', 'Rules'), 'Rules');
    expect(rules).toEqual([expect.objectContaining({ ExpirationInDays: CANARY_ARTIFACT_DAYS, Status: 'Enabled' })]);
    // prod keeps the bucket (a deleted stack's last runs are evidence); the bucket policy refuses plain HTTP
    expect(bucket.DeletionPolicy).toBe('Retain');
    const policies = resourcesOf(s.template, 'AWS::S3::BucketPolicy', { Properties: { Bucket: { Ref: bucketId } } });
    expect(JSON.stringify(Object.values(policies)[0]?.Properties)).toContain('aws:SecureTransport');
  });

  it('alarms when 2 of the last 3 runs failed, or when the canary stops reporting', () => {
    const [alarm] = Object.entries(resourcesOf(s.template, 'AWS::CloudWatch::Alarm'))
      .filter(([id]) => id.startsWith('MonitoringSiteCanary'))
      .map(([, resource]) => resource.Properties);
    expect(alarm).toMatchObject({
      Namespace: 'CloudWatchSynthetics',
      MetricName: 'SuccessPercent',
      Dimensions: [{ Name: 'CanaryName', Value: { Ref: s.idOf(s.stack.siteCanary.canary) } }],
      Statistic: 'Average',
      Period: 300,
      Threshold: 100,
      ComparisonOperator: 'LessThanThreshold',
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
      TreatMissingData: 'breaching',
    });
    expect(asString(alarm.AlarmDescription, 'AlarmDescription')).toMatch(/#site-canary$/);
  });
});
