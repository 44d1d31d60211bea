import { App, Stack } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { GSIS, INDEX, KEY } from '../../functions/lib/table';
import { ROUTE_GROUPS, ROUTES, routeKey } from '../../shared/routes';
import { asList, policyStatements, type SynthesizedStack, synthStack } from './synth-stack';

let s: SynthesizedStack;
beforeAll(() => {
  s = synthStack();
});

const OUR_FUNCTIONS = ['auth', 'learner', 'admin', 'reminders', 'seed'] as const;

describe('table', () => {
  it('is on-demand, with PITR, TTL, deletion protection, kept on stack deletion', () => {
    const tables = s.template.findResources('AWS::DynamoDB::Table');
    expect(Object.keys(tables)).toHaveLength(1);
    const [table] = Object.values(tables);
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: KEY.ttl, Enabled: true },
      DeletionProtectionEnabled: true,
      KeySchema: [
        { AttributeName: KEY.partitionKey, KeyType: 'HASH' },
        { AttributeName: KEY.sortKey, KeyType: 'RANGE' },
      ],
    });
  });

  it('has exactly the GSIs of functions/lib/table.ts, string keys, each with its projection', () => {
    const [table] = Object.values(s.template.findResources('AWS::DynamoDB::Table'));
    const indexes = table.Properties.GlobalSecondaryIndexes as Array<Record<string, unknown>>;
    expect(indexes.map((index) => index.IndexName)).toEqual(GSIS.map((gsi) => gsi.indexName));
    const attributeTypes = Object.fromEntries(
      (table.Properties.AttributeDefinitions as Array<{ AttributeName: string; AttributeType: string }>).map((a) => [
        a.AttributeName,
        a.AttributeType,
      ]),
    );
    for (const gsi of GSIS) {
      expect(indexes).toContainEqual({
        IndexName: gsi.indexName,
        KeySchema: [
          { AttributeName: gsi.partitionKey, KeyType: 'HASH' },
          { AttributeName: gsi.sortKey, KeyType: 'RANGE' },
        ],
        Projection: gsi.projection === 'ALL' ? { ProjectionType: 'ALL' } : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...gsi.projection] },
      });
      expect(attributeTypes[gsi.partitionKey]).toBe('S');
      expect(attributeTypes[gsi.sortKey]).toBe('S');
    }
  });

  it('puts no secret of an account into any index: the user-list indexes project list fields only', () => {
    const [table] = Object.values(s.template.findResources('AWS::DynamoDB::Table'));
    const indexes = table.Properties.GlobalSecondaryIndexes as Array<{ IndexName: string; Projection: { ProjectionType: string; NonKeyAttributes?: string[] } }>;
    for (const name of [INDEX.usersByStatus, INDEX.usersUnverified, INDEX.usersByActivity].map((gsi) => gsi.indexName)) {
      const projection = indexes.find((index) => index.IndexName === name)!.Projection;
      expect(projection.ProjectionType).toBe('INCLUDE');
      for (const secret of ['password_hash', 'session_version', 'email_lower', 'version', 'updated_at', 'last_progress_at']) expect(projection.NonKeyAttributes).not.toContain(secret);
    }
  });
});

describe('HTTP API', () => {
  it('has one route per ROUTES entry and no other', () => {
    const keys = Object.values(s.template.findResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey);
    expect(keys.sort()).toEqual(ROUTES.map(routeKey).sort());
  });

  it("sends every route to its group's Lambda with payload format 2.0", () => {
    const integrations = s.template.findResources('AWS::ApiGatewayV2::Integration');
    const routes = Object.values(s.template.findResources('AWS::ApiGatewayV2::Route'));
    for (const route of ROUTES) {
      const resource = routes.find((r) => r.Properties.RouteKey === routeKey(route));
      const integrationId = resource?.Properties.Target['Fn::Join'][1][1].Ref as string;
      const integration = integrations[integrationId];
      expect(integration.Properties, routeKey(route)).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
        IntegrationUri: { 'Fn::GetAtt': [s.idOf(s.stack.functions[route.group].fn), 'Arn'] },
      });
    }
  });

  it('lets API Gateway invoke each group function, scoped to this API', () => {
    const apiId = s.idOf(s.stack.api.api);
    for (const group of ROUTE_GROUPS) {
      s.template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        Principal: 'apigateway.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [s.idOf(s.stack.functions[group].fn), 'Arn'] },
        SourceArn: { 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp(':execute-api:'), { Ref: apiId }])] },
      });
    }
  });

  it('has an auto-deployed $default stage with access logs and throttling', () => {
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
      DefaultRouteSettings: { ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() },
    });
  });
});

describe('functions', () => {
  it('run Node.js 22 on arm64 with their own log group kept one month', () => {
    for (const name of OUR_FUNCTIONS) {
      const fn = s.template.findResources('AWS::Lambda::Function')[s.idOf(s.stack.functions[name].fn)];
      expect(fn.Properties, name).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        LoggingConfig: { LogGroup: { Ref: s.idOf(s.stack.functions[name].logGroup) } },
      });
      const logGroup = s.template.findResources('AWS::Logs::LogGroup')[s.idOf(s.stack.functions[name].logGroup)];
      expect(logGroup.Properties.RetentionInDays).toBe(30);
    }
  });

  it('get the cloud environment (secret ARN, table, sender, URL parameter name, retention)', () => {
    const parameterName = s.template.findResources('AWS::SSM::Parameter')[s.idOf(s.stack.appUrlParameter)].Properties.Name;
    for (const name of OUR_FUNCTIONS) {
      const fn = s.template.findResources('AWS::Lambda::Function')[s.idOf(s.stack.functions[name].fn)];
      expect(fn.Properties.Environment.Variables, name).toEqual({
        STAGE: 'cloud',
        TABLE_NAME: { Ref: s.idOf(s.stack.data.table) },
        SESSION_SECRET_ARN: { Ref: s.idOf(s.stack.sessionSecret) },
        MAIL_FROM: 'no-reply@example.com',
        APP_URL_PARAMETER: parameterName,
        RETENTION_DAYS: '30',
        POWERTOOLS_SERVICE_NAME: `career-program-${name}`,
        NODE_OPTIONS: '--enable-source-maps',
      });
    }
  });

  it('have roles without AWS managed policies', () => {
    for (const name of OUR_FUNCTIONS) {
      const roleId = s.idOf(s.stack.functions[name].fn.role as never);
      expect(s.template.findResources('AWS::IAM::Role')[roleId].Properties.ManagedPolicyArns, name).toBeUndefined();
    }
  });
});

describe('IAM (least privilege)', () => {
  const statementsOf = (name: (typeof OUR_FUNCTIONS)[number]) => {
    const roleId = s.idOf(s.stack.functions[name].fn.role as never);
    return policyStatements(s.template)
      .filter(({ policyId }) =>
        asList(s.template.findResources('AWS::IAM::Policy')[policyId].Properties.Roles).some(
          (role: { Ref?: string }) => role.Ref === roleId,
        ),
      )
      .map(({ statement }) => statement);
  };
  const actionsOf = (statement: Record<string, unknown>) => asList(statement.Action as string | string[]);

  it('never grants DynamoDB actions on a wildcard resource, and never Scan', () => {
    const dynamo = policyStatements(s.template).filter(({ statement }) =>
      actionsOf(statement).some((action) => action.startsWith('dynamodb:')),
    );
    expect(dynamo.length).toBeGreaterThanOrEqual(OUR_FUNCTIONS.length);
    for (const { statement } of dynamo) {
      expect(actionsOf(statement)).not.toContain('dynamodb:Scan');
      expect(actionsOf(statement).some((action) => action.includes('*'))).toBe(false);
      for (const resource of asList(statement.Resource)) expect(JSON.stringify(resource)).not.toContain('*');
    }
  });

  it('grants table access on the table and each GSI by name', () => {
    const tableArn = { 'Fn::GetAtt': [s.idOf(s.stack.data.table), 'Arn'] };
    for (const name of OUR_FUNCTIONS) {
      const statement = statementsOf(name).find((st) => actionsOf(st).includes('dynamodb:Query'));
      const expected = [tableArn, ...GSIS.map((gsi) => ({ 'Fn::Join': ['', [tableArn, `/index/${gsi.indexName}`]] }))];
      // the policy lists the resources in its own (sorted) order
      expect(statement?.Resource, name).toHaveLength(expected.length);
      expect(statement?.Resource, name).toEqual(expect.arrayContaining(expected));
      expect(actionsOf(statement!)).toContain('dynamodb:PutItem');
    }
  });

  it('allows ses:SendEmail only on the SES identity, and only to the functions that mail', () => {
    const identityArn = s.stack.resolve(s.stack.mailIdentity.emailIdentityArn);
    const sesStatements = policyStatements(s.template).filter(({ statement }) =>
      actionsOf(statement).some((action) => action.startsWith('ses:')),
    );
    expect(sesStatements.length).toBeGreaterThan(0);
    for (const { statement } of sesStatements) expect(statement.Resource).toEqual(identityArn);
    for (const name of ['auth', 'admin', 'reminders'] as const) {
      expect(statementsOf(name).some((st) => actionsOf(st).includes('ses:SendEmail')), name).toBe(true);
    }
    for (const name of ['learner', 'seed'] as const) {
      expect(statementsOf(name).some((st) => actionsOf(st).some((a) => a.startsWith('ses:'))), name).toBe(false);
    }
  });

  it('lets the API functions read the session secret, and nobody else', () => {
    const secretRef = { Ref: s.idOf(s.stack.sessionSecret) };
    for (const { statement } of policyStatements(s.template)) {
      if (actionsOf(statement).includes('secretsmanager:GetSecretValue')) expect(statement.Resource).toEqual(secretRef);
    }
    for (const name of ['auth', 'learner', 'admin'] as const) {
      expect(statementsOf(name).some((st) => actionsOf(st).includes('secretsmanager:GetSecretValue')), name).toBe(true);
    }
    for (const name of ['reminders', 'seed'] as const) {
      expect(statementsOf(name).some((st) => actionsOf(st).includes('secretsmanager:GetSecretValue')), name).toBe(false);
    }
  });

  it('grants ssm:GetParameter on the one app-url parameter ARN, without referencing the parameter', () => {
    const parameterId = s.idOf(s.stack.appUrlParameter);
    const parameterName: string = s.template.findResources('AWS::SSM::Parameter')[parameterId].Properties.Name;
    for (const name of ['auth', 'learner', 'admin', 'reminders'] as const) {
      const statement = statementsOf(name).find((st) => actionsOf(st).includes('ssm:GetParameter'));
      expect(JSON.stringify(statement?.Resource), name).toContain(`:parameter${parameterName}`);
      expect(JSON.stringify(statement?.Resource)).not.toContain('*');
    }
    // Referencing it would close the cycle parameter → distribution → API → functions → parameter.
    const functionsAndPolicies = {
      ...s.template.findResources('AWS::Lambda::Function'),
      ...s.template.findResources('AWS::IAM::Policy'),
    };
    expect(JSON.stringify(functionsAndPolicies)).not.toContain(parameterId);
  });
});

describe('secret, mail identity, site URL parameter', () => {
  it('generates a 64-character session secret without punctuation', () => {
    s.template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true },
    });
  });

  it('verifies the sender address as SES identity by default', () => {
    s.template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'no-reply@example.com' });
  });

  it('stores https://<distribution domain> in the app-url parameter', () => {
    s.template.hasResourceProperties('AWS::SSM::Parameter', {
      Type: 'String',
      Name: '/TestStack/app-url',
      Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [s.idOf(s.stack.site.distribution), 'DomainName'] }]] },
    });
  });
});

describe('jobs', () => {
  it('runs the reminders function every day at 14:00 UTC', () => {
    const remindersArn = { 'Fn::GetAtt': [s.idOf(s.stack.functions.reminders.fn), 'Arn'] };
    s.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'cron(0 14 * * ? *)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: remindersArn })],
    });
    s.template.hasResourceProperties('AWS::Lambda::Permission', {
      Principal: 'events.amazonaws.com',
      FunctionName: remindersArn,
      SourceArn: { 'Fn::GetAtt': [s.idOf(s.stack.schedule.rule), 'Arn'] },
    });
  });

  it('runs the seed function as a deploy-time trigger after the table exists', () => {
    const triggers = Object.values(s.template.findResources('Custom::Trigger'));
    expect(triggers).toHaveLength(1);
    const versions = s.template.findResources('AWS::Lambda::Version', {
      Properties: { FunctionName: { Ref: s.idOf(s.stack.functions.seed.fn) } },
    });
    expect(Object.keys(versions)).toHaveLength(1);
    // Re-run whenever the seed code (and the content bundled into it) changes.
    expect(triggers[0].Properties.HandlerArn).toEqual({ Ref: Object.keys(versions)[0] });
    expect(asList(triggers[0].DependsOn)).toContain(s.idOf(s.stack.data.table));
  });
});

it('outputs the site URL, API URL and table name', () => {
  const outputs = s.template.findOutputs('*');
  expect(outputs.SiteUrl.Value).toEqual({
    'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [s.idOf(s.stack.site.distribution), 'DomainName'] }]],
  });
  expect(outputs.ApiUrl.Value).toEqual({ 'Fn::GetAtt': [s.idOf(s.stack.api.api), 'ApiEndpoint'] });
  expect(outputs.TableName.Value).toEqual({ Ref: s.idOf(s.stack.data.table) });
});

describe('cdk-nag AwsSolutions', () => {
  it('reports no unacknowledged finding', () => {
    const report = new AwsSolutionsChecks().validateScope(s.stack);
    const findings = report.violations.map(
      (v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
    );
    expect(findings).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('would report an error for a resource nobody acknowledged (the check is live)', () => {
    const stack = new Stack(new App(), 'Probe');
    new Secret(stack, 'Unrotated');
    const report = new AwsSolutionsChecks().validateScope(stack);
    expect(report.violations.map((v) => v.ruleName)).toContain('AwsSolutions-SMG4');
  });

  it('gives every acknowledgment a specific reason', () => {
    // Validations.acknowledge records each as metadata { [ruleId]: reason } on the construct.
    const acknowledgments = s.stack.node
      .findAll()
      .flatMap((c) => c.node.metadata.filter((m) => m.type === 'aws:cdk:acknowledged-rules'))
      .flatMap((m) => Object.entries(m.data as Record<string, string>));
    expect(acknowledgments.length).toBeGreaterThan(5);
    for (const [id, reason] of acknowledgments) expect(reason.length, id).toBeGreaterThan(40);
  });
});
