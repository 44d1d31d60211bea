import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import {
  AUTH_RULE_SCOPE,
  BLOCKED_IPS_RULE,
  COUNTED_MANAGED_RULE_GROUPS,
  EDGE_RULES,
  EdgeSecurityStack,
  WAF_REDACTED_HEADERS,
} from '../../infra/edge-stack';
import { STAGES } from '../../infra/stage';
import { ROUTES } from '../../shared/routes';
import { synthStack } from './synth-stack';
import { asObject, asObjects, asString, at, type JsonObject, resourceList, resourceOf } from './template';

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

interface ViewerRequest {
  method: string;
  path: string;
}

/** WAF's text transformations, as far as the rules use them. */
function transform(value: string, transformations: JsonObject[]): string {
  return [...transformations]
    .sort((a, b) => Number(a.Priority) - Number(b.Priority))
    .reduce((text, { Type }) => {
      if (Type === 'NONE') return text;
      if (Type === 'LOWERCASE') return text.toLowerCase();
      if (Type === 'URL_DECODE') return decodeURIComponent(text);
      if (Type === 'NORMALIZE_PATH') {
        const out: string[] = [];
        for (const segment of text.replace(/\/{2,}/g, '/').split('/'))
          if (segment === '..') out.pop();
          else if (segment !== '.') out.push(segment);
        return out.join('/');
      }
      throw new Error(`transformation ${String(Type)} is not evaluated here`);
    }, value);
}

/** Whether a request matches a WAF statement of the template (And, Or, Not and byte matches on the path or the method). */
function matches(statement: JsonObject, request: ViewerRequest): boolean {
  if (statement.AndStatement) return asObjects(at(statement, 'AndStatement', 'Statements')).every((s) => matches(s, request));
  if (statement.OrStatement) return asObjects(at(statement, 'OrStatement', 'Statements')).some((s) => matches(s, request));
  if (statement.NotStatement) return !matches(asObject(at(statement, 'NotStatement', 'Statement')), request);
  const match = asObject(statement.ByteMatchStatement, 'a statement this evaluator knows');
  const field = asObject(match.FieldToMatch);
  const raw = 'UriPath' in field ? request.path : 'Method' in field ? request.method : undefined;
  if (raw === undefined) throw new Error(`field ${JSON.stringify(field)} is not evaluated here`);
  const value = transform(raw, asObjects(match.TextTransformations));
  const search = asString(match.SearchString);
  if (match.PositionalConstraint === 'EXACTLY') return value === search;
  if (match.PositionalConstraint === 'STARTS_WITH') return value.startsWith(search);
  throw new Error(`positional constraint ${String(match.PositionalConstraint)} is not evaluated here`);
}

const authScopeDown = () => asObject(at(rule(EDGE_RULES.authPerIp.name), 'Statement', 'RateBasedStatement', 'ScopeDownStatement'));
const countedByAuthRule = (method: string, path: string) => matches(authScopeDown(), { method, path });

describe('the per-address sign-in rule', () => {
  it("does not count the signed-in reads a page load repeats (GET /api/auth/me, the sessions and passkeys lists), however they're spelled", () => {
    for (const path of ['/api/auth/me', '/api/auth/sessions', '/api/auth/passkeys', '/api/%61uth/me', '/API/AUTH/ME', '/api//auth/me'])
      expect(countedByAuthRule('GET', path), `GET ${path}`).toBe(false);
  });

  it('counts every sign-in, code, registration and reset call, and the reset link check, however the path is spelled', () => {
    for (const path of [
      '/api/auth/login',
      '/api/auth/verify-2fa',
      '/api/auth/register',
      '/api/auth/password-reset/request',
      '/api/auth/passkeys/authentication/verify',
      '/api/%61uth/login',
      '/api//auth/login',
      '/api/x/../auth/login',
      '/API/Auth/Login',
    ])
      expect(countedByAuthRule('POST', path), `POST ${path}`).toBe(true);
    expect(countedByAuthRule('GET', '/api/auth/password-reset/validate')).toBe(true);
    expect(countedByAuthRule('GET', '/api/auth/Password-Reset/validate/')).toBe(true);
    expect(countedByAuthRule('POST', '/api/progress')).toBe(false);
    expect(countedByAuthRule('GET', '/api/health')).toBe(false);
  });

  it('counts a route of shared/routes.ts under /api/auth/ exactly when it is not a signed-in GET', () => {
    const auth = ROUTES.filter((r) => r.path.startsWith('/api/auth/'));
    expect(auth.length).toBeGreaterThan(20);
    for (const route of auth) {
      const path = route.path.replace(/\{[^}]+\}/g, 'x');
      expect(countedByAuthRule(route.method, path), `${route.method} ${route.path}`).toBe(
        route.method !== 'GET' || route.access === 'public',
      );
    }
    expect(AUTH_RULE_SCOPE.countedGets).toEqual(['/api/auth/password-reset/validate']);
  });

  it('compares the method exactly and the path decoded, normalized and lowercased', () => {
    const scope = authScopeDown();
    const statements = asObjects(at(scope, 'AndStatement', 'Statements'));
    expect(at(statements[0], 'ByteMatchStatement')).toMatchObject({ SearchString: '/api/auth/', PositionalConstraint: 'STARTS_WITH' });
    const alternatives = asObjects(at(statements[1], 'OrStatement', 'Statements'));
    expect(at(alternatives[0], 'NotStatement', 'Statement', 'ByteMatchStatement')).toMatchObject({
      FieldToMatch: { Method: {} },
      PositionalConstraint: 'EXACTLY',
      SearchString: 'GET',
    });
    for (const match of [statements[0], ...alternatives.slice(1)])
      expect(at(match, 'ByteMatchStatement', 'TextTransformations')).toEqual([
        { Priority: 0, Type: 'URL_DECODE' },
        { Priority: 1, Type: 'NORMALIZE_PATH' },
        { Priority: 2, Type: 'LOWERCASE' },
      ]);
  });
});

describe('per-address counting', () => {
  it('counts by the viewer address, which is an IPv4 address: the distribution the web ACL guards answers IPv4 only by default', () => {
    for (const name of [EDGE_RULES.authPerIp.name, EDGE_RULES.allPerIp.name])
      expect(at(rule(name), 'Statement', 'RateBasedStatement', 'AggregateKeyType'), name).toBe('IP');
    // WAF cannot group IPv6 addresses by /64: one subscriber would take a fresh address per request
    const ipv6 = (props: Parameters<typeof synthStack>[0]) => {
      const s = synthStack(props);
      return at(
        resourceOf(s.template, 'AWS::CloudFront::Distribution', s.idOf(s.stack.site.distribution)).Properties,
        'DistributionConfig',
        'IPV6Enabled',
      );
    };
    expect(ipv6({})).toBe(false);
    expect(ipv6({ viewerIpv6: true })).toBe(true);
  });
});

describe('WAF rules and logs', () => {
  it('logs to a CloudWatch log group named aws-waf-logs-… with the stage retention, query string, cookie, authorization and Referer redacted', () => {
    const [group] = resourceList(template, 'AWS::Logs::LogGroup');
    const name = asString(group.Properties.LogGroupName, 'LogGroupName');
    expect(name).toMatch(/^aws-waf-logs-/);
    expect(group.Properties.RetentionInDays).toBe(STAGES.prod.logRetention);
    const [logging] = resourceList(template, 'AWS::WAFv2::LoggingConfiguration');
    expect(JSON.stringify(logging.Properties.LogDestinationConfigs)).toContain(`:log-group:${name}`);
    expect(JSON.stringify(logging.Properties.LogDestinationConfigs)).not.toContain(':*');
    expect(logging.Properties.RedactedFields).toEqual([
      { QueryString: {} },
      ...WAF_REDACTED_HEADERS.map((header) => ({ SingleHeader: { Name: header } })),
    ]);
    expect(WAF_REDACTED_HEADERS).toEqual(['cookie', 'authorization', 'referer']);
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

  it('passes cdk-nag', () => {
    expect(new AwsSolutionsChecks().validateScope(edge).violations.map((v) => v.ruleName)).toEqual([]);
  });
});
