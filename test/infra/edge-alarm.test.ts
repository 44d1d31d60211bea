import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { type AppStacks, buildStacks } from '../../infra/app-stacks';
import { CLOUDFRONT_ERROR_RATES } from '../../infra/constructs/edge-alarms';
import { ORIGIN_CERTIFICATE_WARNING_DAYS } from '../../infra/constructs/monitoring';
import type { StageName } from '../../infra/stage';
import { asObjects, asString, at, resourceList } from './template';
import { TEST_API_ORIGIN } from './synth-stack';

/**
 * WAF publishes a CloudFront web ACL's metrics in us-east-1 with the ACL's visibility metric
 * name as the `WebACL` dimension: the blocked-requests alarm must name exactly that, or it
 * watches a series that never gets data (and never fires).
 */
/** `apiCustomDomain` null: none (dev on its execute-api address). */
const stacksOf = (stage: StageName, apiCustomDomain: typeof TEST_API_ORIGIN | null = TEST_API_ORIGIN): AppStacks => {
  const siteDir = mkdtempSync(path.join(tmpdir(), 'site-'));
  writeFileSync(path.join(siteDir, 'index.html'), '<!doctype html><title>test</title>');
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  return buildStacks(app, {
    account: '123456789012',
    region: 'eu-west-1',
    props: { siteDir, stage, apiCustomDomain: apiCustomDomain ?? undefined },
  });
};
const prodStacks = stacksOf('prod');
const edgeTemplate = (stage: StageName): Template => Template.fromStack(stage === 'prod' ? prodStacks.edge : stacksOf(stage).edge);

/** What the synthesized edge stack publishes and what its alarm watches. */
const published = (template: Template) => {
  const acl = resourceList(template, 'AWS::WAFv2::WebACL')[0].Properties;
  const alarms = resourceList(template, 'AWS::CloudWatch::Alarm', { Properties: { Namespace: 'AWS/WAFV2' } });
  expect(alarms).toHaveLength(1);
  const dimensions = Object.fromEntries(
    asObjects(alarms[0].Properties.Dimensions, 'Dimensions').map((d) => [asString(d.Name, 'Name'), d.Value]),
  );
  return {
    aclName: asString(acl.Name, 'Name'),
    aclMetric: asString(at(acl, 'VisibilityConfig', 'MetricName'), 'MetricName'),
    ruleMetrics: asObjects(acl.Rules, 'Rules').map((rule) => asString(at(rule, 'VisibilityConfig', 'MetricName'), 'rule MetricName')),
    dimensions,
  };
};

describe('the WAF blocked-requests alarm', () => {
  const prod = published(edgeTemplate('prod'));
  const dev = published(edgeTemplate('dev'));

  it("watches the metric name the web ACL publishes (its WebACL dimension), all rules, not the ACL's name", () => {
    for (const stage of [prod, dev]) {
      expect(stage.dimensions).toEqual({ WebACL: stage.aclMetric, Rule: 'ALL' });
      expect(stage.dimensions.WebACL).not.toBe(stage.aclName);
    }
  });

  it('dev and prod publish under different metric names, so one account keeps their series apart', () => {
    expect(dev.aclMetric).not.toBe(prod.aclMetric);
    for (const metric of dev.ruleMetrics) expect(prod.ruleMetrics).not.toContain(metric);
    expect(prod.aclMetric).toBe('career-program-edge');
  });
});

describe('the CloudFront error-rate alarms', () => {
  it('watch the distribution in us-east-1 (the companion stack) and mail the edge topic, with a runbook section each', () => {
    const logs = Template.fromStack(prodStacks.logs!);
    const alarms = resourceList(logs, 'AWS::CloudWatch::Alarm', { Properties: { Namespace: 'AWS/CloudFront' } });
    // the origin latency beside them: test/infra/alarm-severity.test.ts ("signals")
    const byMetric = Object.fromEntries(
      alarms
        .filter((a) => a.Properties.MetricName !== 'OriginLatency')
        .map((a) => [asString(a.Properties.MetricName, 'MetricName'), a.Properties]),
    );
    expect(Object.keys(byMetric).sort()).toEqual(['4xxErrorRate', '5xxErrorRate']);
    expect(byMetric['5xxErrorRate'].Threshold).toBe(CLOUDFRONT_ERROR_RATES.serverErrors);
    expect(byMetric['4xxErrorRate'].Threshold).toBe(CLOUDFRONT_ERROR_RATES.clientErrors);
    for (const alarm of Object.values(byMetric)) {
      expect(alarm).toMatchObject({ Statistic: 'Average', EvaluationPeriods: 3, DatapointsToAlarm: 2 });
      const dimensions = Object.fromEntries(asObjects(alarm.Dimensions, 'Dimensions').map((d) => [asString(d.Name, 'Name'), d.Value]));
      expect(dimensions.Region).toBe('Global');
      expect(dimensions.DistributionId).toBeDefined();
      // the edge stack's topic, imported into the companion stack (same region)
      expect(JSON.stringify(alarm.AlarmActions)).toContain(prodStacks.edge.stackName);
      expect(asString(alarm.AlarmDescription, 'AlarmDescription')).toMatch(/#cloudfront-[45]xx-rate$/);
    }
    expect(prodStacks.logs!.region).toBe('us-east-1');
  });
});

describe("the expiry alarm of CloudFront's client certificate", () => {
  const expiryAlarms = (template: Template) =>
    resourceList(template, 'AWS::CloudWatch::Alarm', { Properties: { Namespace: 'AWS/CertificateManager' } });

  it('watches the daily DaysToExpiry of that certificate beside it (the edge stack, us-east-1) and fires under 30 days', () => {
    expect(prodStacks.edge.region).toBe('us-east-1');
    const alarms = expiryAlarms(edgeTemplate('prod'));
    expect(alarms).toHaveLength(1);
    expect(alarms[0].Properties).toMatchObject({
      MetricName: 'DaysToExpiry',
      Dimensions: [{ Name: 'CertificateArn', Value: TEST_API_ORIGIN.clientCertificateArn }],
      Statistic: 'Minimum',
      Period: 86_400,
      Threshold: ORIGIN_CERTIFICATE_WARNING_DAYS,
      ComparisonOperator: 'LessThanThreshold',
    });
    expect(asString(alarms[0].Properties.AlarmDescription, 'AlarmDescription')).toMatch(/#origin-client-certificate-expiring$/);
    expect(ORIGIN_CERTIFICATE_WARNING_DAYS).toBe(30);
  });

  it('is not there without an API domain (dev on its execute-api address)', () => {
    expect(expiryAlarms(Template.fromStack(stacksOf('dev', null).edge))).toEqual([]);
  });
});
