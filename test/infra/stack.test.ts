import { App, Stack } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { GSIS, INDEX, KEY, PK, STREAMED_REFERENCES } from '../../functions/lib/table';
import { ROUTE_GROUPS, ROUTES, routeKey } from '../../shared/routes';
import { asList, policyStatements, STACK_FUNCTIONS, type SynthesizedStack, synthStack } from './synth-stack';
import { TABLE_ACCESS } from '../../infra/table-access';
import { asObject, asObjects, asString, at, resourceList, resourceOf } from './template';

let s: SynthesizedStack;
beforeAll(() => {
  s = synthStack();
});

const OUR_FUNCTIONS = STACK_FUNCTIONS;
const queueUrl = (queue: { queue: IConstruct }) => ({ Ref: s.idOf(queue.queue) });
/** What each function gets beyond the common environment: the queues it sends to, the reminder rate. */
const extraEnvironment = (name: (typeof OUR_FUNCTIONS)[number]): Record<string, unknown> =>
  ({
    admin: { PURGE_QUEUE_URL: queueUrl(s.stack.purgeQueue) },
    purge: { PURGE_QUEUE_URL: queueUrl(s.stack.purgeQueue) },
    erasure: { PURGE_QUEUE_URL: queueUrl(s.stack.purgeQueue) },
    auth: { DEVICE_AUDIT_SECRET_ARN: { Ref: s.idOf(s.stack.deviceAuditSecret) } },
    passkeys: { DEVICE_AUDIT_SECRET_ARN: { Ref: s.idOf(s.stack.deviceAuditSecret) } },
    learner: {
      UNSUBSCRIBE_SECRET_ARN: { Ref: s.idOf(s.stack.unsubscribeSecret) },
      DEVICE_AUDIT_SECRET_ARN: { Ref: s.idOf(s.stack.deviceAuditSecret) },
      EXPORT_BUCKET: { Ref: s.idOf(s.stack.exports.bucket) },
    },
    // the hourly job signs the removal links of the passkey notices it sends late
    reminders: { REMINDER_QUEUE_URL: queueUrl(s.stack.reminderQueue), DEVICE_AUDIT_SECRET_ARN: { Ref: s.idOf(s.stack.deviceAuditSecret) } },
    reminderWorker: {
      REMINDER_QUEUE_URL: queueUrl(s.stack.reminderQueue),
      REMINDER_WORKERS: '2',
      SES_BULK_CONFIGURATION_SET: { Ref: s.idOf(s.stack.mailEvents.bulkConfigurationSet) },
      UNSUBSCRIBE_SECRET_ARN: { Ref: s.idOf(s.stack.unsubscribeSecret) },
    },
  })[name as string] ?? {};

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
    const [table] = resourceList(s.template, 'AWS::DynamoDB::Table');
    const indexes = asObjects(table.Properties.GlobalSecondaryIndexes, 'GlobalSecondaryIndexes');
    expect(indexes.map((index) => index.IndexName)).toEqual(GSIS.map((gsi) => gsi.indexName));
    const attributeTypes = Object.fromEntries(
      asObjects(table.Properties.AttributeDefinitions, 'AttributeDefinitions').map((a) => [
        asString(a.AttributeName, 'AttributeName'),
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
        Projection:
          gsi.projection === 'ALL' ? { ProjectionType: 'ALL' } : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...gsi.projection] },
        // its value: test/infra/monitoring.test.ts "cost guardrails"
        OnDemandThroughput: expect.any(Object) as object,
      });
      expect(attributeTypes[gsi.partitionKey]).toBe('S');
      expect(attributeTypes[gsi.sortKey]).toBe('S');
    }
  });

  it('puts no secret of an account into any index: the user-list indexes project list fields only', () => {
    const [table] = resourceList(s.template, 'AWS::DynamoDB::Table');
    const indexes = asObjects(table.Properties.GlobalSecondaryIndexes, 'GlobalSecondaryIndexes');
    for (const name of [INDEX.usersByStatus, INDEX.usersUnverified, INDEX.usersByActivity].map((gsi) => gsi.indexName)) {
      const projection = asObject(indexes.find((index) => index.IndexName === name)!.Projection, `${name}.Projection`);
      expect(projection.ProjectionType).toBe('INCLUDE');
      for (const secret of ['password_hash', 'session_version', 'email_lower', 'version', 'updated_at', 'last_progress_at'])
        expect(projection.NonKeyAttributes).not.toContain(secret);
    }
  });
});

describe('HTTP API', () => {
  it('has one route per ROUTES entry and no other', () => {
    const keys = resourceList(s.template, 'AWS::ApiGatewayV2::Route').map((r) => r.Properties.RouteKey);
    expect(keys.sort()).toEqual(ROUTES.map(routeKey).sort());
  });

  it("sends every route to its group's Lambda, through the live alias, with payload format 2.0", () => {
    const integrations = s.template.findResources('AWS::ApiGatewayV2::Integration');
    const routes = resourceList(s.template, 'AWS::ApiGatewayV2::Route');
    for (const route of ROUTES) {
      const resource = routes.find((r) => r.Properties.RouteKey === routeKey(route));
      const integrationId = asString(at(resource?.Properties, 'Target', 'Fn::Join', 1, 1, 'Ref'), routeKey(route));
      const integration = integrations[integrationId];
      expect(integration.Properties, routeKey(route)).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
        // the alias CodeDeploy moves (infra/constructs/api-rollout.ts), never $LATEST
        IntegrationUri: { Ref: s.idOf(s.stack.apiRollout.aliases[route.group]) },
      });
    }
  });

  it("lets API Gateway invoke each group function's live alias, scoped to this API", () => {
    const apiId = s.idOf(s.stack.api.api);
    for (const group of ROUTE_GROUPS) {
      s.template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        Principal: 'apigateway.amazonaws.com',
        FunctionName: { Ref: s.idOf(s.stack.apiRollout.aliases[group]) },
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

  it('logs each request as JSON with its route, status, integration status and error, and latencies', () => {
    const stage = resourceList(s.template, 'AWS::ApiGatewayV2::Stage')[0];
    const format = JSON.parse(asString(at(stage.Properties, 'AccessLogSettings', 'Format'), 'Format')) as Record<string, string>;
    expect(format).toMatchObject({
      routeKey: '$context.routeKey',
      status: '$context.status',
      integrationStatus: '$context.integrationStatus',
      integrationError: '$context.integrationErrorMessage',
      latencyMs: '$context.responseLatency',
      integrationLatencyMs: '$context.integrationLatency',
    });
  });
});

describe('functions', () => {
  it('run Node.js 22 on arm64 with their own log group kept as the stage says (prod: three months)', () => {
    for (const name of OUR_FUNCTIONS) {
      const fn = s.template.findResources('AWS::Lambda::Function')[s.idOf(s.stack.functions[name].fn)];
      expect(fn.Properties, name).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        LoggingConfig: { LogGroup: { Ref: s.idOf(s.stack.functions[name].logGroup) } },
      });
      const logGroup = resourceOf(s.template, 'AWS::Logs::LogGroup', s.idOf(s.stack.functions[name].logGroup));
      expect(logGroup.Properties.RetentionInDays).toBe(90);
    }
  });

  it('get the cloud environment (secret ARN, table, sender, URL parameter name, retention)', () => {
    const parameterName = resourceOf(s.template, 'AWS::SSM::Parameter', s.idOf(s.stack.appUrlParameter)).Properties.Name;
    for (const name of OUR_FUNCTIONS) {
      const fn = resourceOf(s.template, 'AWS::Lambda::Function', s.idOf(s.stack.functions[name].fn));
      expect(at(fn.Properties, 'Environment', 'Variables'), name).toEqual({
        STAGE: 'cloud',
        TABLE_NAME: { Ref: s.idOf(s.stack.data.table) },
        SESSION_SECRET_ARN: { Ref: s.idOf(s.stack.sessionSecret) },
        ORIGIN_SECRET_ARN: { Ref: s.idOf(s.stack.originSecret) },
        AUDIT_RETENTION_DAYS: '400',
        MAIL_FROM: 'no-reply@example.com',
        APP_URL_PARAMETER: parameterName,
        RETENTION_DAYS: '30',
        // prod (the default stage) requires administrators' passkeys
        ADMIN_PASSKEY_REQUIRED: 'true',
        SES_CONFIGURATION_SET: { Ref: s.idOf(s.stack.mailEvents.configurationSet) },
        // the mail budget's shares of the SES account (functions/accounts/mail-budget.ts)
        BULK_SEND_SHARE: '50',
        MAIL_RESERVED_SHARE: '20',
        POWERTOOLS_SERVICE_NAME: `career-program-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
        ...extraEnvironment(name),
      });
    }
  });

  it("require administrators' passkeys in prod only (docs/security.md#administrators-sign-in-with-a-passkey)", () => {
    const dev = synthStack({ stage: 'dev' });
    for (const name of OUR_FUNCTIONS) {
      const fn = resourceOf(dev.template, 'AWS::Lambda::Function', dev.idOf(dev.stack.functions[name].fn));
      expect(at(fn.Properties, 'Environment', 'Variables', 'ADMIN_PASSKEY_REQUIRED'), name).toBe('false');
    }
  });

  it('have roles without AWS managed policies', () => {
    for (const name of OUR_FUNCTIONS) {
      const roleId = s.idOf(s.stack.functions[name].fn.role!);
      expect(resourceOf(s.template, 'AWS::IAM::Role', roleId).Properties.ManagedPolicyArns, name).toBeUndefined();
    }
  });
});

describe('IAM (least privilege)', () => {
  const statementsOf = (name: (typeof OUR_FUNCTIONS)[number]) => {
    const roleId = s.idOf(s.stack.functions[name].fn.role!);
    return policyStatements(s.template)
      .filter(({ policyId }) =>
        asList(resourceOf(s.template, 'AWS::IAM::Policy', policyId).Properties.Roles).some(
          (role) => asObject(role, `${policyId} role`).Ref === roleId,
        ),
      )
      .map(({ statement }) => statement);
  };
  const actionsOf = (statement: Record<string, unknown>) => asList(statement.Action as string | string[]);

  it('never grants DynamoDB actions on a wildcard resource, and never Scan', () => {
    const dynamo = policyStatements(s.template).filter(({ statement }) =>
      actionsOf(statement).some((action) => action.startsWith('dynamodb:')),
    );
    // every function reads or writes the table (the hourly schedule reads the reminder index)
    expect(dynamo.length).toBeGreaterThanOrEqual(OUR_FUNCTIONS.length);
    for (const { statement } of dynamo) {
      expect(actionsOf(statement)).not.toContain('dynamodb:Scan');
      expect(actionsOf(statement).some((action) => action.includes('*'))).toBe(false);
      // ListStreams (the stream event source's, infra/constructs/activity-stream.ts) names no table
      // and reads no record: IAM takes no other resource for it
      if (
        actionsOf(statement)
          .filter((action) => action.startsWith('dynamodb:'))
          .join() === 'dynamodb:ListStreams'
      )
        continue;
      for (const resource of asList(statement.Resource)) expect(JSON.stringify(resource)).not.toContain('*');
    }
  });

  it('grants GSI queries on each index by name, only to the functions that query and only the indexes they query', () => {
    const tableArn = { 'Fn::GetAtt': [s.idOf(s.stack.data.table), 'Arn'] };
    // the hourly schedule queries the reminder index (which of the hour's partitions hold learners)
    // and the deferred notices' partition, reads their accounts, counts their limits and deletes the sent ones
    expect(
      statementsOf('reminders')
        .flatMap(actionsOf)
        .filter((a) => a.startsWith('dynamodb:'))
        .sort(),
    ).toEqual(['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    for (const name of STACK_FUNCTIONS) {
      const indexes = [...new Set((TABLE_ACCESS[name]?.indexes ?? []).map((index) => INDEX[index].indexName))];
      const statement = statementsOf(name).find((st) => JSON.stringify(st.Resource).includes('/index/'));
      if (!indexes.length) {
        expect(statement, name).toBeUndefined();
        continue;
      }
      const expected = indexes.map((indexName) => ({ 'Fn::Join': ['', [tableArn, `/index/${indexName}`]] }));
      // the policy lists the resources in its own (sorted) order
      expect(asList(statement?.Resource as unknown[]), name).toHaveLength(expected.length);
      expect(asList(statement?.Resource as unknown[]), name).toEqual(expect.arrayContaining(expected));
      expect(actionsOf(statement!)).toEqual(['dynamodb:Query']);
    }
  });

  it('allows ses:SendEmail only on the SES identity and the configuration set of its mail stream, and only to the functions that mail', () => {
    const identity = s.stack.resolve(s.stack.mailIdentity.emailIdentityArn) as unknown;
    const transactional = [identity, s.stack.resolve(s.stack.mailEvents.configurationSetArn)];
    const bulk = [identity, s.stack.resolve(s.stack.mailEvents.bulkConfigurationSetArn)];
    const sesStatements = policyStatements(s.template).filter(({ statement }) => actionsOf(statement).some((a) => a.startsWith('ses:')));
    const sends = sesStatements.filter(({ statement }) => actionsOf(statement).includes('ses:SendEmail'));
    expect(sends).toHaveLength(6);
    // the hourly job (reminders) sends the deferred security notices: transactional mail
    for (const name of ['auth', 'passkeys', 'learner', 'admin', 'reminders', 'reminderWorker'] as const) {
      const send = statementsOf(name).filter((st) => actionsOf(st).includes('ses:SendEmail'));
      expect(send, name).toHaveLength(1);
      // the policy lists the resources in its own (sorted) order
      expect(asList(send[0].Resource), name).toHaveLength(2);
      expect(asList(send[0].Resource), name).toEqual(expect.arrayContaining(name === 'reminderWorker' ? bulk : transactional));
    }
    // SES v2 SendEmail is the only send the code makes (functions/lib/email.ts), and GetAccount the
    // only read: the mail budgets are shares of the account (functions/accounts/mail-budget.ts,
    // functions/lib/bulk-budget.ts), read by every function that mails
    const reads = sesStatements.filter(({ statement }) => !actionsOf(statement).includes('ses:SendEmail'));
    for (const { statement } of reads) {
      expect(actionsOf(statement).filter((action) => action.startsWith('ses:'))).toEqual(['ses:GetAccount']);
      expect(statement.Resource).toBe('*'); // GetAccount has no resource type
    }
    const mailing = ['auth', 'passkeys', 'learner', 'admin', 'reminders', 'reminderWorker'];
    for (const name of OUR_FUNCTIONS)
      expect(
        statementsOf(name).some((st) => actionsOf(st).includes('ses:GetAccount')),
        name,
      ).toBe(mailing.includes(name));
    for (const { statement } of sends) expect(actionsOf(statement)).toEqual(['ses:SendEmail']);
    // learner: the password-changed security notice (docs/security.md#account-security-center)
    for (const name of ['auth', 'passkeys', 'learner', 'admin', 'reminders', 'reminderWorker'] as const) {
      expect(
        statementsOf(name).some((st) => actionsOf(st).includes('ses:SendEmail')),
        name,
      ).toBe(true);
    }
    for (const name of ['seed', 'purge', 'mailEvents', 'erasure'] as const) {
      expect(
        statementsOf(name).some((st) => actionsOf(st).some((a) => a.startsWith('ses:'))),
        name,
      ).toBe(false);
    }
  });

  it('lets the API functions read the session and origin secrets, and nobody else', () => {
    const secretRefs = [
      { Ref: s.idOf(s.stack.sessionSecret) },
      { Ref: s.idOf(s.stack.originSecret) },
      { Ref: s.idOf(s.stack.unsubscribeSecret) },
      { Ref: s.idOf(s.stack.deviceAuditSecret) },
    ];
    for (const { statement } of policyStatements(s.template)) {
      if (actionsOf(statement).includes('secretsmanager:GetSecretValue'))
        for (const resource of asList(statement.Resource as unknown[])) expect(secretRefs).toContainEqual(resource);
    }
    for (const name of ['auth', 'passkeys', 'learner', 'admin'] as const) {
      expect(
        statementsOf(name).some((st) => actionsOf(st).includes('secretsmanager:GetSecretValue')),
        name,
      ).toBe(true);
    }
    for (const name of ['seed', 'purge', 'erasure'] as const) {
      expect(
        statementsOf(name).some((st) => actionsOf(st).includes('secretsmanager:GetSecretValue')),
        name,
      ).toBe(false);
    }
    // the unsubscribe-link key: signed by the reminder worker, verified by the learner function; never the session key for the worker
    const reads = (name: keyof typeof s.stack.functions, ref: object) =>
      statementsOf(name).some(
        (st) =>
          actionsOf(st).includes('secretsmanager:GetSecretValue') &&
          asList(st.Resource as unknown[]).some((resource) => JSON.stringify(resource) === JSON.stringify(ref)),
      );
    const unsubscribe = { Ref: s.idOf(s.stack.unsubscribeSecret) };
    for (const name of OUR_FUNCTIONS) expect(reads(name, unsubscribe), name).toBe(name === 'learner' || name === 'reminderWorker');
    expect(reads('reminderWorker', { Ref: s.idOf(s.stack.sessionSecret) })).toBe(false);
    // device cookies and audit hashes: their own key, for the functions that set, check or write them
    const deviceAudit = { Ref: s.idOf(s.stack.deviceAuditSecret) };
    // (the hourly job: the removal links of the passkey notices it sends late)
    for (const name of OUR_FUNCTIONS)
      expect(reads(name, deviceAudit), name).toBe(['auth', 'passkeys', 'learner', 'reminders'].includes(name));
    // … and never the session or origin key
    expect(reads('reminders', { Ref: s.idOf(s.stack.sessionSecret) })).toBe(false);
    expect(reads('reminders', { Ref: s.idOf(s.stack.originSecret) })).toBe(false);
  });

  it('grants ssm:GetParameter on the one app-url parameter ARN, without referencing the parameter', () => {
    const parameterId = s.idOf(s.stack.appUrlParameter);
    const parameterName = asString(resourceOf(s.template, 'AWS::SSM::Parameter', parameterId).Properties.Name, 'parameter name');
    for (const name of ['auth', 'passkeys', 'learner', 'admin', 'reminderWorker', 'reminders'] as const) {
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
  it('runs the reminders function every hour, on the hour (each run mails the learners whose local morning it is)', () => {
    const remindersArn = { 'Fn::GetAtt': [s.idOf(s.stack.functions.reminders.fn), 'Arn'] };
    s.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'cron(0 * * * ? *)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: remindersArn })],
    });
    s.template.hasResourceProperties('AWS::Lambda::Permission', {
      Principal: 'events.amazonaws.com',
      FunctionName: remindersArn,
      SourceArn: { 'Fn::GetAtt': [s.idOf(s.stack.schedule.rule), 'Arn'] },
    });
  });

  it('runs the erasure function every day at 03:00 UTC, with the purge access and its own checkpoint only', () => {
    const erasureArn = { 'Fn::GetAtt': [s.idOf(s.stack.functions.erasure.fn), 'Arn'] };
    s.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'cron(0 3 * * ? *)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: erasureArn })],
    });
    s.template.hasResourceProperties('AWS::Lambda::Permission', {
      Principal: 'events.amazonaws.com',
      FunctionName: erasureArn,
      SourceArn: { 'Fn::GetAtt': [s.idOf(s.stack.erasureSchedule.rule), 'Arn'] },
    });
    expect(s.stack.functions.erasure.fn.timeout?.toSeconds()).toBe(900);
  });

  it('runs the reconciliation of the counters every day at 04:30 UTC, with 15 minutes a run and its failed runs kept', () => {
    const reconcileArn = { 'Fn::GetAtt': [s.idOf(s.stack.functions.reconcile.fn), 'Arn'] };
    s.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'cron(30 4 * * ? *)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: reconcileArn, RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 7200 } })],
    });
    s.template.hasResourceProperties('AWS::Lambda::Permission', {
      Principal: 'events.amazonaws.com',
      FunctionName: reconcileArn,
      SourceArn: { 'Fn::GetAtt': [s.idOf(s.stack.reconcileSchedule.rule), 'Arn'] },
    });
    const fn = resourceOf(s.template, 'AWS::Lambda::Function', s.idOf(s.stack.functions.reconcile.fn));
    expect(fn.Properties.Timeout).toBe(900);
    // a run that fails after Lambda's two retries (out of time three times, or an error) waits in the job dead letters
    expect(fn.Properties.DeadLetterConfig).toEqual({ TargetArn: { 'Fn::GetAtt': [s.idOf(s.stack.jobDeadLetters.queue), 'Arn'] } });
  });

  it('has the erasure index of soft-deleted accounts, projecting ids and deletion times only', () => {
    const [table] = resourceList(s.template, 'AWS::DynamoDB::Table');
    const index = asObjects(table.Properties.GlobalSecondaryIndexes, 'GlobalSecondaryIndexes').find(
      (gsi) => gsi.IndexName === 'erasureDue',
    );
    expect(index).toMatchObject({
      KeySchema: [
        { AttributeName: 'erasureDuePk', KeyType: 'HASH' },
        { AttributeName: 'erasureDueSk', KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['id', 'deleted_at', 'status'] },
    });
  });

  it('fans reminders and purges out over SQS: dead-letter queues, bounded worker concurrency, partial batch failures', () => {
    for (const [work, worker, concurrency] of [
      [s.stack.reminderQueue, s.stack.functions.reminderWorker, 2],
      [s.stack.purgeQueue, s.stack.functions.purge, 2],
    ] as const) {
      const queue = s.template.findResources('AWS::SQS::Queue')[s.idOf(work.queue)];
      expect(queue.Properties).toMatchObject({
        VisibilityTimeout: 900 * 6,
        SqsManagedSseEnabled: true,
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [s.idOf(work.deadLetterQueue), 'Arn'] }, maxReceiveCount: 5 },
      });
      s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: s.idOf(worker.fn) },
        EventSourceArn: { 'Fn::GetAtt': [s.idOf(work.queue), 'Arn'] },
        BatchSize: 1,
        ScalingConfig: { MaximumConcurrency: concurrency },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      const fn = resourceOf(s.template, 'AWS::Lambda::Function', s.idOf(worker.fn));
      expect(fn.Properties.Timeout).toBe(900);
    }
    // only the functions that enqueue may send, each to its own queue
    const actionsOf = (statement: Record<string, unknown>) => asList(statement.Action as string | string[]);
    const sends = policyStatements(s.template).filter(({ statement }) => actionsOf(statement).includes('sqs:SendMessage'));
    // (IAM statements with the same action are merged: a statement may name two queues)
    const senders = (queue: IConstruct) =>
      sends.filter(({ statement }) =>
        asList(statement.Resource).some((r) => JSON.stringify(r) === JSON.stringify({ 'Fn::GetAtt': [s.idOf(queue), 'Arn'] })),
      ).length;
    expect(senders(s.stack.reminderQueue.queue)).toBe(2);
    expect(senders(s.stack.purgeQueue.queue)).toBe(3); // admin, purge worker, erasure job
    // and Lambda's own async failures: the bounce handler, the scheduled jobs (reminders, erasure, reconciliation)
    expect(senders(s.stack.mailEvents.deadLetterQueue)).toBe(1);
    expect(senders(s.stack.jobDeadLetters.queue)).toBe(3);
    // and the stream event source's batches that failed their retries: the activity aggregator
    expect(senders(s.stack.activityStream.deadLetterQueue)).toBe(1);
    expect(sends).toHaveLength(8);
  });

  it('invokes the activity aggregator only for the stream records it acts on, transactional audit entries among them', () => {
    const mapping = resourceList(s.template, 'AWS::Lambda::EventSourceMapping').find(
      (resource) =>
        JSON.stringify(at(resource.Properties, 'FunctionName')) === JSON.stringify({ Ref: s.idOf(s.stack.functions.activityStream.fn) }),
    );
    const patterns = asObjects(at(mapping?.Properties, 'FilterCriteria', 'Filters'), 'Filters').map(
      (filter) => JSON.parse(asString(filter.Pattern, 'Pattern')) as unknown,
    );
    expect(patterns).toHaveLength(3);
    // an audit entry (not a reference: 'AUDIT#' is not a prefix of 'AUDITREF#') marked as written in a transaction
    expect(patterns).toContainEqual({
      eventName: ['INSERT'],
      dynamodb: {
        Keys: { pk: { S: [{ prefix: PK.audit }] } },
        NewImage: { [STREAMED_REFERENCES.attribute]: { S: [STREAMED_REFERENCES.value] } },
      },
    });
    expect(PK.auditRef.startsWith(PK.audit)).toBe(false);
  });

  it('sends reminders within a configured share of the SES account, shared by the configured number of workers', () => {
    const custom = synthStack({ bulkSendShare: 30, reminderWorkers: 10 });
    const fn = resourceOf(custom.template, 'AWS::Lambda::Function', custom.idOf(custom.stack.functions.reminderWorker.fn));
    expect(at(fn.Properties, 'Environment', 'Variables')).toMatchObject({ BULK_SEND_SHARE: '30', REMINDER_WORKERS: '10' });
    custom.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { ScalingConfig: { MaximumConcurrency: 10 } });
  });

  it('runs the seed function as a deploy-time trigger after the table exists', () => {
    const triggers = resourceList(s.template, 'Custom::Trigger');
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

it('outputs the site URL and table name, and no API URL (the API answers through CloudFront only)', () => {
  const outputs = s.template.findOutputs('*');
  expect(outputs.SiteUrl.Value).toEqual({
    'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [s.idOf(s.stack.site.distribution), 'DomainName'] }]],
  });
  // ApiDnsTarget: where the API domain's DNS record points (docs/runbook.md#api-origin), not an address to call
  expect(Object.keys(outputs).sort()).toEqual(['ApiDnsTarget', 'DashboardName', 'SiteUrl', 'TableName']);
  expect(JSON.stringify(outputs)).not.toContain('ApiEndpoint');
  expect(outputs.TableName.Value).toEqual({ Ref: s.idOf(s.stack.data.table) });
});

describe('cdk-nag AwsSolutions', () => {
  it('reports no unacknowledged finding', () => {
    const report = new AwsSolutionsChecks().validateScope(s.stack);
    const findings = report.violations.map((v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
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
