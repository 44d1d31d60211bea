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
import { asList, policyStatements, STACK_FUNCTIONS, type SynthesizedStack, synthStack, TEST_API_ORIGIN } from './synth-stack';
import { bindTableAccess, type TableAccessSpec } from '../../infra/constructs/app-function';
import { TABLE_ACCESS } from '../../infra/table-access';
import { auditRefPartition, INDEX, PARTITION_PREFIXES, PK } from '../../functions/lib/table';
import { wildcardMatch } from '../../infra/local/iam/grants';
import { asObject, asObjects, asString, asStrings, at, type JsonObject, maybeAt, resourceList, resourceOf } from './template';

/** docs/security.md: the origin check, least privilege, throttles and the reset link in logs, on the synthesized stacks. */
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

describe('the API is reachable through CloudFront only', () => {
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
        statementsOf(name).some((st) =>
          asList(st.Resource as unknown[]).some(
            (resource) => JSON.stringify(resource) === JSON.stringify({ Ref: s.idOf(s.stack.originSecret) }),
          ),
        ),
        name,
      ).toBe(true);
    }
  });

  it('outputs no API address', () => {
    expect(Object.keys(s.template.findOutputs('*'))).not.toContain('ApiUrl');
  });
});

describe('least privilege in the table', () => {
  const tableStatements = (name: keyof typeof s.stack.functions) =>
    statementsOf(name).filter((st) => actionsOf(st).some((action) => action.startsWith('dynamodb:')));
  const grantsOn = (name: keyof typeof s.stack.functions, prefix: string) =>
    tableStatements(name)
      .filter((st) => leadingKeysOf(st)?.includes(`${prefix}*`))
      .flatMap(actionsOf)
      .sort();
  /** The actions granted on `prefix` or on any narrower prefix under it (`AUDITREF#ENTITY#user#`). */
  const grantsUnder = (name: keyof typeof s.stack.functions, prefix: string) => [
    ...new Set(
      tableStatements(name)
        .filter((st) => leadingKeysOf(st)?.some((pattern) => pattern.startsWith(prefix)))
        .flatMap(actionsOf),
    ),
  ];
  /** The key patterns a function may use `action` on. */
  const patternsOf = (name: keyof typeof s.stack.functions, action: string) =>
    tableStatements(name)
      .filter((st) => actionsOf(st).includes(`dynamodb:${action}`))
      .flatMap((st) => leadingKeysOf(st) ?? []);
  const queriedIndexes = (name: keyof typeof s.stack.functions) =>
    tableStatements(name)
      .filter((st) => JSON.stringify(st.Resource).includes('/index/'))
      .flatMap((st) => asList(st.Resource as unknown[]).map((resource) => /\/index\/([\w]+)/.exec(JSON.stringify(resource))?.[1]))
      .sort();

  it('binds every table statement to key prefixes and names each index it queries', () => {
    for (const name of STACK_FUNCTIONS) {
      for (const statement of tableStatements(name)) {
        const actions = actionsOf(statement);
        const resource = JSON.stringify(statement.Resource);
        if (resource.includes('/index/')) expect(actions, name).toEqual(['dynamodb:Query']);
        // the stream event source reads the table's stream (no item), and lists streams (no resource)
        else if (resource.includes('StreamArn'))
          expect(actions, name).toEqual(['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator']);
        else if (actions.includes('dynamodb:ListStreams')) expect(name).toBe('activityStream');
        else if (actions.includes('dynamodb:DescribeTable')) expect(actions, name).toEqual(['dynamodb:DescribeTable']);
        else expect(leadingKeysOf(statement), `${name} ${actions.join(',')}`).toBeDefined();
        expect(resource, name).not.toContain('/index/*');
        expect(actions, name).not.toContain('dynamodb:Scan');
      }
    }
  });

  it('lets functions append audit entries and references, only the hard delete’s functions anonymise them (and delete references), only readers of the log query them, and none delete an entry', () => {
    for (const name of STACK_FUNCTIONS) {
      const audit = grantsUnder(name, 'AUDIT#');
      expect(
        audit.filter((action) => !['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'].includes(action)),
        name,
      ).toEqual([]);
      expect(audit.includes('dynamodb:UpdateItem'), name).toBe(['admin', 'purge'].includes(name));
      expect(audit.includes('dynamodb:Query'), name).toBe(name === 'admin');
      // the aggregator reads an entry written in a transaction by key, to put its references
      expect(audit.includes('dynamodb:BatchGetItem'), name).toBe(['admin', 'purge', 'learner', 'activityStream'].includes(name));
      const refs = grantsUnder(name, 'AUDITREF#');
      expect(
        refs.filter(
          (action) =>
            !['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'].includes(action),
        ),
        name,
      ).toEqual([]);
      // the aggregator reads which references of such an entry exist (keys only), to put the missing ones
      expect(refs.includes('dynamodb:BatchGetItem'), name).toBe(name === 'activityStream');
      for (const action of ['dynamodb:UpdateItem', 'dynamodb:DeleteItem'])
        expect(refs.includes(action), `${name} ${action}`).toBe(['admin', 'purge'].includes(name));
    }
    expect(() => bindTableAccess(s.stack.functions.auth.fn, s.stack.data, { items: { 'AUDIT#': ['PutItem', 'BatchWriteItem'] } })).toThrow(
      'BatchWriteItem on AUDIT# is not granted',
    );
    expect(() => bindTableAccess(s.stack.functions.auth.fn, s.stack.data, { items: { 'AUDIT#': ['DeleteItem'] } })).toThrow(
      'DeleteItem on AUDIT# is not granted',
    );
  });

  it('grants each function exactly the table access of infra/table-access.ts', () => {
    for (const name of STACK_FUNCTIONS) {
      const access = TABLE_ACCESS[name];
      for (const prefix of new Set([
        ...PARTITION_PREFIXES,
        ...(Object.keys(access?.items ?? {}) as Array<keyof TableAccessSpec['items']>),
      ])) {
        const expected = (access?.items[prefix] ?? []).map((action) => `dynamodb:${action}`).sort();
        expect(grantsOn(name, prefix), `${name} ${prefix}`).toEqual(expected);
      }
      const indexes = [...new Set((access?.indexes ?? []).map((index) => INDEX[index].indexName))].sort();
      expect(queriedIndexes(name), name).toEqual(indexes);
    }
  });

  it('keeps the seed to program content, the learner to its own audit history, and the hourly schedule to the reminder index and the deferred notices', () => {
    expect(tableStatements('seed').flatMap((st) => leadingKeysOf(st) ?? [])).toEqual(expect.arrayContaining(['PROGRAM#*']));
    expect(new Set(tableStatements('seed').flatMap((st) => leadingKeysOf(st) ?? []))).toEqual(new Set(['PROGRAM#*']));
    expect(queriedIndexes('learner')).toEqual([INDEX.auditByEntity.indexName]);
    expect(grantsOn('learner', 'EMAIL#')).toEqual([]);
    // the deferred notices (NOTICE#), their accounts (USER#, read) and their limits (RATE#)
    expect(new Set(tableStatements('reminders').flatMap((st) => leadingKeysOf(st) ?? []))).toEqual(
      new Set(['USER#*', 'NOTICE#*', 'RATE#*']),
    );
    expect(grantsOn('reminders', 'USER#')).toEqual(['dynamodb:GetItem']);
    expect(queriedIndexes('reminders')).toEqual([INDEX.remindersDue.indexName]);
  });

  it("keeps the learner-facing functions' audit references to those their own entries make, and the learner's reads to account histories", () => {
    const allows = (patterns: string[], key: string) => patterns.some((pattern) => wildcardMatch(pattern, key));
    const adminEntry = auditRefPartition.action('admin.user.lock', '2026-01', 0);
    for (const name of ['auth', 'passkeys', 'learner', 'mailEvents'] as const) {
      const puts = patternsOf(name, 'PutItem');
      // no grant on every reference partition
      expect(puts, name).not.toContain(`${PK.auditRef}*`);
      // not an administrator's action partitions, nor the histories of programs, exports and routes
      for (const key of [
        adminEntry,
        auditRefPartition.action('system.user.hard_delete', '2026-01', 0),
        auditRefPartition.entity('program', 'career-program'),
        auditRefPartition.entity('export', 'users'),
        auditRefPartition.entity('route', 'GET /api/admin/users'),
      ])
        expect(allows(puts, key), `${name} may put ${key}`).toBe(false);
      // the references of its own entries, on an account
      expect(allows(puts, auditRefPartition.entity('user', '2f1c4f3e-0b7a-4c59-9f0e-3b1d2a4c5e6f')), name).toBe(true);
    }
    for (const name of ['auth', 'passkeys', 'learner'] as const) {
      const puts = patternsOf(name, 'PutItem');
      expect(allows(puts, auditRefPartition.action('auth.login_failed', '2026-01', 3)), name).toBe(true);
      expect(allows(puts, auditRefPartition.actor('2f1c4f3e-0b7a-4c59-9f0e-3b1d2a4c5e6f')), name).toBe(true);
      expect(allows(puts, auditRefPartition.domain('example.com', '2026-01', 1)), name).toBe(true);
      expect(allows(puts, auditRefPartition.entity('rate_limit', 'loginPerIp')), name).toBe(true);
    }
    // a bounce or a complaint has no actor: no actor's or domain's partition
    expect(allows(patternsOf('mailEvents', 'PutItem'), auditRefPartition.actor('2f1c4f3e-0b7a-4c59-9f0e-3b1d2a4c5e6f'))).toBe(false);
    // reads: only the learner queries references, and only an account's own history (the data export)
    expect(patternsOf('learner', 'Query').filter((pattern) => pattern.startsWith('AUDITREF#'))).toEqual(['AUDITREF#ENTITY#user#*']);
    for (const key of [adminEntry, auditRefPartition.actor('x'), auditRefPartition.domain('example.com', '2026-01', 0)])
      expect(allows(patternsOf('learner', 'Query'), key), key).toBe(false);
    for (const name of ['auth', 'passkeys', 'mailEvents'] as const)
      expect(
        patternsOf(name, 'Query').filter((pattern) => pattern.startsWith('AUDIT')),
        name,
      ).toEqual([]);
  });

  it('lets the health check describe the table', () => {
    expect(statementsOf('auth').some((st) => actionsOf(st).includes('dynamodb:DescribeTable'))).toBe(true);
  });
});

describe('throttles and the edge', () => {
  it('throttles the stage for a million learners and the costly unauthenticated routes tighter', () => {
    const stage = resourceList(s.template, 'AWS::ApiGatewayV2::Stage')[0].Properties;
    expect(stage.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: STAGE_THROTTLE.rateLimit,
      ThrottlingBurstLimit: STAGE_THROTTLE.burstLimit,
    });
    expect(at(stage.RouteSettings, 'POST /api/auth/login')).toEqual({ ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 });
    // restoring a deleted account checks a password too (scrypt): a ceiling of its own, both steps
    for (const key of ['POST /api/auth/restore', 'POST /api/auth/restore/verify'])
      expect(at(stage.RouteSettings, key), key).toEqual({ ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 });
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
    // the scope-down (under /api/auth/, signed-in reads left out) is evaluated in test/infra/waf.test.ts
    expect(
      at(
        rules[EDGE_RULES.authPerIp.name],
        'Statement',
        'RateBasedStatement',
        'ScopeDownStatement',
        'AndStatement',
        'Statements',
        0,
        'ByteMatchStatement',
        'SearchString',
      ),
    ).toBe('/api/auth/');
    for (const rule of [rules[EDGE_RULES.allPerIp.name], rules[EDGE_RULES.authPerIp.name]])
      expect(at(rule, 'Action', 'Block', 'CustomResponse', 'ResponseCode')).toBe(429);
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
    return buildStacks(app, { account: '123456789012', region: 'eu-west-1', props: { siteDir, apiCustomDomain: TEST_API_ORIGIN } });
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
