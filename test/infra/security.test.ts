import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildStacks } from '../../infra/app-stacks';
import { CLOUDFRONT_LOG_FIELDS_LEFT_OUT } from '../../infra/constructs/cloudfront-access-logs';
import { ROUTE_THROTTLES, STAGE_THROTTLE } from '../../infra/constructs/http-api';
import { EDGE_RULES, EdgeSecurityStack, WEB_ACL_METRIC } from '../../infra/edge-stack';
import { ORIGIN_VERIFY_HEADER } from '../../shared/origin-verify';
import { ROUTES, routeKey } from '../../shared/routes';
import { asList, policyStatements, type SynthesizedStack, synthStack } from './synth-stack';
import { asObject, asObjects, asString, asStrings, at, type JsonObject, maybeAt, resourceList, resourceOf } from './template';

/** docs/security.md: H1, L7, L8 and the reset link in logs, on the synthesized stacks. */
const WEB_ACL_ARN = 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/career-web-acl/0f1e2d3c';
let s: SynthesizedStack;
beforeAll(() => {
  // us-east-1: the CloudFront log delivery sits in the main stack itself.
  s = synthStack({ env: { account: '123456789012', region: 'us-east-1' }, webAclArn: WEB_ACL_ARN });
});

const distributionConfig = () =>
  asObject(
    resourceOf(s.template, 'AWS::CloudFront::Distribution', s.idOf(s.stack.site.distribution)).Properties.DistributionConfig,
    'DistributionConfig',
  );
const actionsOf = (statement: Record<string, unknown>) => asList(statement.Action as string | string[]);
const statementsOf = (name: keyof typeof s.stack.functions) => {
  const roleId = s.idOf(s.stack.functions[name].fn.role!);
  return policyStatements(s.template)
    .filter(({ policyId }) =>
      asList(resourceOf(s.template, 'AWS::IAM::Policy', policyId).Properties.Roles).some(
        (role) => asObject(role, `${policyId} role`).Ref === roleId,
      ),
    )
    .map(({ statement }) => statement);
};
const leadingKeysOf = (statement: JsonObject) => {
  const keys = maybeAt(statement, 'Condition', 'ForAllValues:StringLike', 'dynamodb:LeadingKeys');
  return keys === undefined ? undefined : asStrings(keys, 'dynamodb:LeadingKeys');
};

describe('H1: the API is reachable through CloudFront only', () => {
  it('has CloudFront send the origin-verify secret, resolved from Secrets Manager at deploy time', () => {
    const config = distributionConfig();
    const api = asObjects(config.CacheBehaviors, 'CacheBehaviors').find((b) => b.PathPattern === '/api/*')!;
    const origin = asObjects(config.Origins, 'Origins').find((o) => o.Id === api.TargetOriginId)!;
    const header = asObjects(origin.OriginCustomHeaders, 'OriginCustomHeaders').find((h) => h.HeaderName === ORIGIN_VERIFY_HEADER)!;
    const value = JSON.stringify(header.HeaderValue);
    expect(value).toContain('{{resolve:secretsmanager:');
    expect(value).toContain(s.idOf(s.stack.originSecret));
  });

  it('generates a long origin secret that only the API functions may read', () => {
    const secret = resourceOf(s.template, 'AWS::SecretsManager::Secret', s.idOf(s.stack.originSecret));
    expect(secret.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 48, ExcludePunctuation: true });
    for (const name of ['auth', 'learner', 'admin'] as const) {
      expect(
        statementsOf(name).some((st) => JSON.stringify(st.Resource) === JSON.stringify({ Ref: s.idOf(s.stack.originSecret) })),
        name,
      ).toBe(true);
    }
  });

  it('outputs no API address', () => {
    expect(Object.keys(s.template.findOutputs('*'))).not.toContain('ApiUrl');
  });
});

describe('L7: least privilege in the table', () => {
  it('lets no function but the admin function (hard delete) change an audit entry, and none delete one', () => {
    for (const name of ['auth', 'learner', 'admin', 'reminders', 'seed'] as const) {
      for (const statement of statementsOf(name)) {
        const actions = actionsOf(statement).filter((a) => a.startsWith('dynamodb:'));
        if (!actions.length) continue;
        const prefixes = leadingKeysOf(statement);
        const isIndexQuery = JSON.stringify(statement.Resource).includes('/index/');
        const isDescribe = actions.length === 1 && actions[0] === 'dynamodb:DescribeTable';
        // every table statement is bound to key prefixes
        if (!isIndexQuery && !isDescribe) expect(prefixes, `${name} ${actions.join(',')}`).toBeDefined();
        if (!prefixes?.includes('AUDIT#*')) continue;
        const writes = actions.filter(
          (a) => !['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'].includes(a),
        );
        expect(writes, name).not.toContain('dynamodb:DeleteItem');
        expect(writes, name).not.toContain('dynamodb:BatchWriteItem');
        if (name !== 'admin') expect(writes, name).not.toContain('dynamodb:UpdateItem');
      }
    }
    expect(
      statementsOf('admin').some((st) => leadingKeysOf(st)?.includes('AUDIT#*') && actionsOf(st).includes('dynamodb:UpdateItem')),
    ).toBe(true);
  });

  it('keeps the seed to program content and the learner from writing accounts of others’ kinds', () => {
    const writesOf = (name: 'seed' | 'learner' | 'reminderWorker') =>
      statementsOf(name)
        .filter((st) => actionsOf(st).includes('dynamodb:UpdateItem'))
        .flatMap((st) => leadingKeysOf(st) ?? []);
    expect(writesOf('seed')).toEqual(['PROGRAM#*']);
    expect(writesOf('learner')).not.toContain('EMAIL#*');
    expect(writesOf('learner')).not.toContain('PROGRAM#*');
    // reminder markers and the fan-out's checkpoints; the daily schedule itself touches no table
    expect(writesOf('reminderWorker')).toEqual(['USER#*', 'JOB#*']);
    expect(statementsOf('reminders').some((st) => actionsOf(st).some((action) => action.startsWith('dynamodb:')))).toBe(false);
    // read-only where it only reads: the learner reads program content, never writes it
    expect(
      statementsOf('learner').some((st) => actionsOf(st).includes('dynamodb:GetItem') && leadingKeysOf(st)?.includes('PROGRAM#*')),
    ).toBe(true);
  });

  it('lets the health check describe the table', () => {
    expect(statementsOf('auth').some((st) => actionsOf(st).includes('dynamodb:DescribeTable'))).toBe(true);
  });
});

describe('L8: throttles and the edge', () => {
  it('throttles the stage for a million learners and the costly unauthenticated routes tighter', () => {
    const stage = resourceList(s.template, 'AWS::ApiGatewayV2::Stage')[0].Properties;
    expect(stage.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: STAGE_THROTTLE.rateLimit,
      ThrottlingBurstLimit: STAGE_THROTTLE.burstLimit,
    });
    expect(at(stage.RouteSettings, 'POST /api/auth/login')).toEqual({ ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 });
    const known = new Set(ROUTES.map(routeKey));
    for (const key of Object.keys(ROUTE_THROTTLES)) {
      expect(known.has(key), key).toBe(true);
      expect(at(stage.RouteSettings, key, 'ThrottlingRateLimit')).toBeLessThan(STAGE_THROTTLE.rateLimit);
    }
  });

  it('puts the web ACL on the distribution', () => {
    expect(distributionConfig().WebACLId).toBe(WEB_ACL_ARN);
  });

  it('has a us-east-1 web ACL with per-IP rate-based rules, named for alarms', () => {
    const edge = new EdgeSecurityStack(new App(), 'Edge', { env: { region: 'us-east-1' } });
    const template = Template.fromStack(edge);
    template.hasResourceProperties('AWS::WAFv2::WebACL', { Scope: 'CLOUDFRONT', Name: edge.webAclName, DefaultAction: { Allow: {} } });
    const acl = resourceList(template, 'AWS::WAFv2::WebACL')[0].Properties;
    expect(at(acl, 'VisibilityConfig', 'MetricName')).toBe(WEB_ACL_METRIC);
    const rules = Object.fromEntries(asObjects(acl.Rules, 'Rules').map((rule) => [asString(rule.Name, 'rule name'), rule]));
    expect(at(rules[EDGE_RULES.allPerIp.name], 'Statement', 'RateBasedStatement')).toMatchObject({
      AggregateKeyType: 'IP',
      Limit: EDGE_RULES.allPerIp.limit,
    });
    expect(at(rules[EDGE_RULES.authPerIp.name], 'Statement', 'RateBasedStatement')).toMatchObject({
      AggregateKeyType: 'IP',
      Limit: EDGE_RULES.authPerIp.limit,
    });
    expect(
      at(rules[EDGE_RULES.authPerIp.name], 'Statement', 'RateBasedStatement', 'ScopeDownStatement', 'ByteMatchStatement', 'SearchString'),
    ).toBe('/api/auth/');
    for (const rule of asObjects(acl.Rules, 'Rules')) expect(at(rule, 'Action', 'Block', 'CustomResponse', 'ResponseCode')).toBe(429);
    expect(edge.metricNames).toEqual({
      webAcl: WEB_ACL_METRIC,
      allPerIp: EDGE_RULES.allPerIp.metric,
      authPerIp: EDGE_RULES.authPerIp.metric,
    });
  });
});

describe('the reset link stays out of CloudFront logs', () => {
  it('delivers access logs (v2) without query strings, referers or cookies', () => {
    const delivery = resourceList(s.template, 'AWS::Logs::Delivery')[0].Properties;
    for (const field of CLOUDFRONT_LOG_FIELDS_LEFT_OUT) expect(delivery.RecordFields).not.toContain(field);
    expect(delivery.RecordFields).toEqual(expect.arrayContaining(['timestamp', 'c-ip', 'cs-uri-stem', 'sc-status']));
    s.template.hasResourceProperties('AWS::Logs::DeliverySource', { LogType: 'ACCESS_LOGS' });
    expect(distributionConfig().Logging).toBeUndefined();
  });

  it('passes cdk-nag', () => {
    const report = new AwsSolutionsChecks().validateScope(s.stack);
    expect(report.violations.map((v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  });
});

describe('the deployed app: main stack in another region, linked to its us-east-1 companions', () => {
  const build = () => {
    const siteDir = mkdtempSync(path.join(tmpdir(), 'site-'));
    writeFileSync(path.join(siteDir, 'index.html'), '<!doctype html><title>test</title>');
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    return buildStacks(app, { account: '123456789012', region: 'eu-west-1', props: { siteDir } });
  };

  it('links the web ACL and delivers CloudFront logs from us-east-1, and passes cdk-nag in every stack', () => {
    const stacks = build();
    expect(stacks.edge.region).toBe('us-east-1');
    expect(stacks.logs?.region).toBe('us-east-1');
    const main = Template.fromStack(stacks.main);
    const distribution = resourceList(main, 'AWS::CloudFront::Distribution')[0].Properties.DistributionConfig;
    expect(JSON.stringify(at(distribution, 'WebACLId'))).toContain('WebAcl');
    Template.fromStack(stacks.logs!).hasResourceProperties('AWS::Logs::DeliverySource', { LogType: 'ACCESS_LOGS' });
    for (const stack of [stacks.edge, stacks.main, stacks.logs!]) {
      const report = new AwsSolutionsChecks().validateScope(stack);
      expect(
        report.violations.map((v) => `${stack.stackName}: ${v.ruleName} ${v.violatingResources.map((r) => r.constructPath).join(', ')}`),
      ).toEqual([]);
    }
  });
});
