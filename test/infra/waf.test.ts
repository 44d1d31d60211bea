import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { BLOCKED_IPS_RULE, COUNTED_MANAGED_RULE_GROUPS, EDGE_RULES, EdgeSecurityStack, WAF_REDACTED_HEADERS } from '../../infra/edge-stack';
import { STAGES } from '../../infra/stage';
import { asObjects, asString, at, type JsonObject, resourceList } from './template';

/**
 * docs/runbook.md#waf-rules-and-logs: the web ACL logs to CloudWatch Logs without cookies or
 * credentials, blocks the operator's own IP set first, counts the AWS managed rule groups and
 * matches the sign-in scope-down however the path is encoded.
 */
const IP_SET_ARN = 'arn:aws:wafv2:us-east-1:123456789012:global/ipset/blocked/0f1e2d3c-aaaa-bbbb-cccc-000000000000';
const edge = new EdgeSecurityStack(new App(), 'Edge', { env: { region: 'us-east-1' }, blockedIpSetArn: IP_SET_ARN });
const template = Template.fromStack(edge);
const acl = resourceList(template, 'AWS::WAFv2::WebACL')[0].Properties;
const rules = asObjects(acl.Rules, 'Rules');
const rule = (name: string): JsonObject => {
  const found = rules.find((r) => r.Name === name);
  expect(found, name).toBeDefined();
  return found!;
};

describe('WAF rules and logs', () => {
  it('logs to a CloudWatch log group named aws-waf-logs-… with the stage retention, cookie and authorization redacted', () => {
    const [group] = resourceList(template, 'AWS::Logs::LogGroup');
    const name = asString(group.Properties.LogGroupName, 'LogGroupName');
    expect(name).toMatch(/^aws-waf-logs-/);
    expect(group.Properties.RetentionInDays).toBe(STAGES.prod.logRetention);
    const [logging] = resourceList(template, 'AWS::WAFv2::LoggingConfiguration');
    expect(JSON.stringify(logging.Properties.LogDestinationConfigs)).toContain(`:log-group:${name}`);
    expect(JSON.stringify(logging.Properties.LogDestinationConfigs)).not.toContain(':*');
    expect(logging.Properties.RedactedFields).toEqual(WAF_REDACTED_HEADERS.map((header) => ({ SingleHeader: { Name: header } })));
    expect(WAF_REDACTED_HEADERS).toEqual(['cookie', 'authorization']);
  });

  it("blocks the operator's IP set before any other rule, and has no such rule without one", () => {
    const blocked = rule(BLOCKED_IPS_RULE);
    expect(blocked.Priority).toBe(Math.min(...rules.map((r) => Number(r.Priority))));
    expect(blocked.Action).toEqual({ Block: {} });
    expect(at(blocked, 'Statement', 'IPSetReferenceStatement', 'Arn')).toBe(IP_SET_ARN);
    // the stack never owns the addresses: a deploy cannot revert the operator's edits
    expect(resourceList(template, 'AWS::WAFv2::IPSet')).toEqual([]);
    const without = Template.fromStack(new EdgeSecurityStack(new App(), 'Edge', { env: { region: 'us-east-1' } }));
    const names = asObjects(resourceList(without, 'AWS::WAFv2::WebACL')[0].Properties.Rules, 'Rules').map((r) => r.Name);
    expect(names).not.toContain(BLOCKED_IPS_RULE);
  });

  it('counts the AWS managed IP reputation and known-bad-inputs rule groups, blocking nothing', () => {
    expect([...COUNTED_MANAGED_RULE_GROUPS].sort()).toEqual([
      'AWSManagedRulesAmazonIpReputationList',
      'AWSManagedRulesKnownBadInputsRuleSet',
    ]);
    for (const name of COUNTED_MANAGED_RULE_GROUPS) {
      const group = rule(name);
      expect(at(group, 'Statement', 'ManagedRuleGroupStatement')).toEqual({ VendorName: 'AWS', Name: name });
      expect(group.OverrideAction).toEqual({ Count: {} });
      expect(group.Action).toBeUndefined();
    }
  });

  it('URL-decodes and normalizes the path before the sign-in scope-down compares it', () => {
    const match = at(rule(EDGE_RULES.authPerIp.name), 'Statement', 'RateBasedStatement', 'ScopeDownStatement', 'ByteMatchStatement');
    expect(at(match, 'TextTransformations')).toEqual([
      { Priority: 0, Type: 'URL_DECODE' },
      { Priority: 1, Type: 'NORMALIZE_PATH' },
      { Priority: 2, Type: 'LOWERCASE' },
    ]);
  });

  it('passes cdk-nag', () => {
    expect(new AwsSolutionsChecks().validateScope(edge).violations.map((v) => v.ruleName)).toEqual([]);
  });
});
