import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { CfnTopic, Topic } from 'aws-cdk-lib/aws-sns';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { severityOf } from '../../infra/constructs/alarm-severity';
import { runbookQueries } from '../../infra/constructs/log-queries';
import { API_NAMESPACE, TIMEOUTS_NAMESPACE, wafBlocksAlarm } from '../../infra/constructs/monitoring';
import type { StageName } from '../../infra/stage';
import { GSIS } from '../../functions/lib/table';
import { METRIC, METRICS_NAMESPACE } from '../../shared/metric-names';
import { policyStatements, STACK_FUNCTIONS, type SynthesizedStack, synthStack } from './synth-stack';
import { allResources, asObjects, asString, at, type JsonObject, maybeAt, resourceList, resourceOf, resourcesOf } from './template';

/**
 * Operability of the stack (docs/runbook.md): every alarm with its metric, threshold and action,
 * tracing and log retention on every function, the dashboard, the SES configuration set and its
 * bounce handler, and the dev/prod stages.
 */
const FUNCTIONS = STACK_FUNCTIONS;
/** The workers that run until their time is nearly up and continue in a next invocation. */
const WHOLE_BUDGET: readonly string[] = ['purge', 'erasure', 'reconcile', 'reminderWorker'];
const RUNBOOK = readFileSync(path.resolve(import.meta.dirname, '../../docs/runbook.md'), 'utf8');
/** GitHub-style anchors of the runbook's headings. */
const ANCHORS = new Set(
  [...RUNBOOK.matchAll(/^#{2,4} (.+)$/gm)].map((m) =>
    m[1]
      .trim()
      .toLowerCase()
      .replace(/[^\w\- ]/g, '')
      .replace(/ /g, '-'),
  ),
);

let prod: SynthesizedStack;
let full: SynthesizedStack;
beforeAll(() => {
  prod = synthStack();
  // With the optional WAF alarm (the reminder queue's alarms are always there: the stack owns the queue).
  full = synthStack({
    alarmEmail: 'ops@example.com',
    pageEmail: 'pager@example.com',
    runbookUrl: 'https://git.example.com/career-program/blob/main/docs/runbook.md',
    webAclMetricName: 'career-program-site',
    expectedDailyReminders: 140_000,
    sesSendRate: 70,
    monthlyBudgetUsd: 900,
    tableMaxReadUnits: 3000,
    tableMaxWriteUnits: 2000,
    indexMaxReadUnits: 1000,
    indexMaxWriteUnits: 500,
    logIngestionGbPerHour: 4,
  });
});

const alarmsOf = (s: SynthesizedStack) => resourcesOf(s.template, 'AWS::CloudWatch::Alarm');
const alarm = (s: SynthesizedStack, id: string): JsonObject => {
  const found = Object.entries(alarmsOf(s)).find(([logicalId]) => logicalId.startsWith(`Monitoring${id}`));
  expect(found, id).toBeDefined();
  return found![1].Properties;
};
/** The topic an alarm linking this runbook section notifies (its severity's). */
const topicRef = (s: SynthesizedStack, section: string) => ({ Ref: s.idOf(s.stack.monitoring.topics[severityOf(section)]) });
const fnRef = (s: SynthesizedStack, name: (typeof FUNCTIONS)[number]) => ({ Ref: s.idOf(s.stack.functions[name].fn) });
/** Metric names an alarm (plain or math) reads. */
const metricNames = (props: JsonObject): string[] =>
  props.MetricName
    ? [asString(props.MetricName, 'MetricName')]
    : asObjects(props.Metrics ?? [], 'Metrics').flatMap((m) =>
        m.MetricStat ? [asString(at(m.MetricStat, 'Metric', 'MetricName'), 'MetricName')] : [],
      );

describe('alarms', () => {
  it('each notify the topic of their severity on ALARM and on OK, and describe their meaning with a runbook link that exists', () => {
    const alarms = Object.values(alarmsOf(prod));
    // API 3 (5xx rate, latency, 403 rate), per function 3 (errors, throttles, duration or timed out), DynamoDB 2,
    // SES 2 + 2 per mail stream, failed reminders + unfinished slices 2, sign-in spike 1, reminder queue age + dead letters 2, mail event
    // dead letters 1, purge queue age + dead letters + failed steps, erasure backlog, job dead letters 5, site canary 1,
    // activity stream iterator age + dead letters 2, mail budget exhausted + security notices deferred 2, log ingestion 1,
    // counter drift 1, SES warnings 2, the stream's paging iterator age 1, heartbeats of the reminders, erasure and reconcile 3
    expect(alarms.length).toBe(3 + FUNCTIONS.length * 3 + 2 + 2 + 4 + 2 + 1 + 2 + 1 + 5 + 1 + 2 + 2 + 1 + 1 + 2 + 1 + 3);
    for (const { Properties: a } of alarms) {
      const description = asString(a.AlarmDescription, 'AlarmDescription');
      const [meaning, link] = description.split('\nRunbook: ');
      const section = link.split('#')[1];
      expect(a.AlarmActions, description).toEqual([topicRef(prod, section)]);
      expect(a.OKActions).toEqual([topicRef(prod, section)]);
      // only the canary and the heartbeats count silence as failing (docs/runbook.md#site-canary, #schedule-stopped)
      expect(a.TreatMissingData).toBe(['site-canary', 'schedule-stopped'].includes(section) ? 'breaching' : 'notBreaching');
      expect(meaning.length).toBeGreaterThan(30);
      expect(link).toMatch(/^docs\/runbook\.md#[a-z0-9-]+$/);
      expect(ANCHORS.has(link.split('#')[1]), link).toBe(true);
    }
  });

  it('API: 5xx rate above 1 % (2 of 3 five-minute periods) and p95 latency above 2 s', () => {
    const rate = alarm(prod, 'Api5xxRate');
    expect(rate).toMatchObject({
      Threshold: 1,
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    const expression = asObjects(rate.Metrics, 'Metrics').find((m) => m.Expression)!;
    expect(expression.Expression).toBe('IF(requests >= 20, 100 * errors / requests, 0)');
    expect(metricNames(rate).sort()).toEqual(['5xx', 'Count']);
    for (const m of asObjects(rate.Metrics, 'Metrics').filter((x) => x.MetricStat)) {
      expect(at(m, 'MetricStat', 'Metric', 'Namespace')).toBe('AWS/ApiGateway');
      expect(at(m, 'MetricStat', 'Metric', 'Dimensions')).toEqual([{ Name: 'ApiId', Value: { Ref: prod.idOf(prod.stack.api.api) } }]);
    }
    expect(alarm(prod, 'ApiLatencyP95')).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: 'Latency',
      ExtendedStatistic: 'p95',
      Threshold: 2000,
      EvaluationPeriods: 3,
    });
  });

  it('every function: errors, throttles, and p99 duration at 80 % of its timeout (the workers that use their budget: Task timed out)', () => {
    for (const name of FUNCTIONS) {
      const label = name.charAt(0).toUpperCase() + name.slice(1);
      const dims = [{ Name: 'FunctionName', Value: fnRef(prod, name) }];
      expect(alarm(prod, `${label}Errors`), name).toMatchObject({
        Namespace: 'AWS/Lambda',
        MetricName: 'Errors',
        Statistic: 'Sum',
        Threshold: 1,
        Dimensions: dims,
      });
      expect(alarm(prod, `${label}Throttles`), name).toMatchObject({
        Namespace: 'AWS/Lambda',
        MetricName: 'Throttles',
        Threshold: 1,
        Dimensions: dims,
      });
      const timeoutMs = prod.stack.functions[name].fn.timeout!.toMilliseconds();
      if (WHOLE_BUDGET.includes(name)) {
        expect(
          Object.keys(alarmsOf(prod)).some((id) => id.startsWith(`Monitoring${label}DurationNearTimeout`)),
          name,
        ).toBe(false);
        expect(alarm(prod, `${label}TimedOut`), name).toMatchObject({
          Namespace: TIMEOUTS_NAMESPACE,
          MetricName: name,
          Statistic: 'Sum',
          Threshold: 1,
        });
        // counted from the function's own log group, on the runtime's line
        const filters = resourceList(prod.template, 'AWS::Logs::MetricFilter', {
          Properties: { MetricTransformations: [{ MetricNamespace: TIMEOUTS_NAMESPACE, MetricName: name }] },
        });
        expect(filters, name).toHaveLength(1);
        expect(filters[0].Properties).toMatchObject({
          FilterPattern: '"Task timed out"',
          LogGroupName: { Ref: prod.idOf(prod.stack.functions[name].logGroup) },
        });
        continue;
      }
      expect(alarm(prod, `${label}DurationNearTimeout`), name).toMatchObject({
        MetricName: 'Duration',
        ExtendedStatistic: 'p99',
        Threshold: Math.round(timeoutMs * 0.8),
        Dimensions: dims,
      });
    }
    // Until the reminder fan-out exists, the reminder job's errors are the reminders alarm; the
    // seed trigger's failure is the seed function's errors.
    expect(alarm(prod, 'RemindersErrors').AlarmDescription).toMatch(/#reminders-failing$/);
    expect(alarm(prod, 'SeedErrors').AlarmDescription).toMatch(/#seed-failed$/);
    expect(alarm(prod, 'MailEventsErrors').AlarmDescription).toMatch(/#bounce-handler-errors$/);
  });

  it('API: a 403 rate of a quarter or more (the origin guard refusing CloudFront), counted from the access log', () => {
    const rate = alarm(prod, 'Api403Rate');
    expect(rate).toMatchObject({ Threshold: 25, EvaluationPeriods: 3, DatapointsToAlarm: 2 });
    const metrics = asObjects(rate.Metrics, 'Metrics');
    expect(metrics.find((m) => m.Expression)?.Expression).toBe('IF(requests >= 20, 100 * forbidden / requests, 0)');
    expect(metricNames(rate).sort()).toEqual(['Count', 'Forbidden']);
    const [filter] = resourceList(prod.template, 'AWS::Logs::MetricFilter', {
      Properties: { MetricTransformations: [{ MetricNamespace: API_NAMESPACE, MetricName: 'Forbidden' }] },
    });
    expect(filter.Properties).toMatchObject({
      FilterPattern: '{ $.status = "403" }',
      LogGroupName: { Ref: prod.idOf(prod.stack.api.accessLogs) },
    });
  });

  it('DynamoDB: throttled requests and system errors over the operations the code uses', () => {
    for (const [id, metricName] of [
      ['TableThrottles', 'ThrottledRequests'],
      ['TableSystemErrors', 'SystemErrors'],
    ]) {
      const a = alarm(prod, id);
      expect(a.Threshold).toBe(1);
      const names = metricNames(a);
      expect(names.length).toBeGreaterThanOrEqual(8);
      expect(new Set(names)).toEqual(new Set([metricName]));
      for (const m of asObjects(a.Metrics, 'Metrics').filter((x) => x.MetricStat)) {
        expect(at(m, 'MetricStat', 'Metric', 'Namespace')).toBe('AWS/DynamoDB');
        expect(at(m, 'MetricStat', 'Metric', 'Dimensions')).toContainEqual({
          Name: 'TableName',
          Value: { Ref: prod.idOf(prod.stack.data.table) },
        });
      }
      const operationOf = (m: JsonObject) =>
        m.MetricStat === undefined || m.MetricStat === null
          ? undefined
          : asObjects(at(m.MetricStat, 'Metric', 'Dimensions'), 'Dimensions').find((d) => d.Name === 'Operation')?.Value;
      expect(asObjects(a.Metrics, 'Metrics').map(operationOf).filter(Boolean)).not.toContain('Scan');
    }
  });

  it('SES: bounce rate above 5 % and complaint rate above 0.1 % (reputation metrics)', () => {
    expect(alarm(prod, 'SesBounceRate')).toMatchObject({
      Namespace: 'AWS/SES',
      MetricName: 'Reputation.BounceRate',
      Threshold: 0.05,
      ComparisonOperator: 'GreaterThanThreshold',
    });
    expect(alarm(prod, 'SesComplaintRate')).toMatchObject({
      Namespace: 'AWS/SES',
      MetricName: 'Reputation.ComplaintRate',
      Threshold: 0.001,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  it('SES per mail stream: the same thresholds on the reputation figures of each configuration set', () => {
    const streams = [
      ['Transactional', prod.stack.mailEvents.configurationSet],
      ['Bulk', prod.stack.mailEvents.bulkConfigurationSet],
    ] as const;
    for (const [name, set] of streams) {
      const dimensions = [{ Name: 'ses:configuration-set', Value: { Ref: prod.idOf(set) } }];
      expect(alarm(prod, `Ses${name}BounceRate`)).toMatchObject({
        MetricName: 'Reputation.BounceRate',
        Threshold: 0.05,
        Dimensions: dimensions,
      });
      expect(alarm(prod, `Ses${name}ComplaintRate`)).toMatchObject({
        MetricName: 'Reputation.ComplaintRate',
        Threshold: 0.001,
        Dimensions: dimensions,
      });
    }
  });

  it("business metrics: failed reminders per day, any day's slice left unfinished by the next day, a failed sign-in spike", () => {
    expect(alarm(prod, 'RemindersFailed')).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      MetricName: METRIC.remindersFailed,
      Dimensions: [{ Name: 'service', Value: 'career-program' }],
      Period: 86400,
      Threshold: 5,
    });
    expect(alarm(prod, 'ReminderSlicesUnfinished')).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      MetricName: METRIC.reminderSlicesUnfinished,
      Dimensions: [{ Name: 'service', Value: 'career-program' }],
      Statistic: 'Sum',
      Period: 86400,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(alarm(prod, 'FailedSignInSpike')).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      MetricName: METRIC.failedSignIns,
      Statistic: 'Sum',
      Period: 300,
      Threshold: 50,
    });
    // the mail budget's open share used up pages at once (docs/runbook.md#mail-budget-exhausted)
    expect(alarm(prod, 'MailBudgetExhausted')).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      MetricName: METRIC.mailBudgetExhausted,
      Statistic: 'Sum',
      Threshold: 1,
      AlarmActions: [topicRef(prod, 'mail-budget-exhausted')],
    });
    // a security notice that had to wait for the hourly job is a ticket (docs/runbook.md#security-notices-deferred)
    expect(alarm(prod, 'SecurityNoticesDeferred')).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      MetricName: METRIC.securityNoticesDeferred,
      Dimensions: [{ Name: 'service', Value: 'career-program' }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: [topicRef(prod, 'security-notices-deferred')],
    });
    expect(severityOf('security-notices-deferred')).toBe('ticket');
  });

  it('counter drift: the daily reconciliation saw a drift two days in a row (a ticket), and its job errors are a ticket too', () => {
    expect(alarm(prod, 'CounterDrift')).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      MetricName: METRIC.counterDrift,
      Dimensions: [{ Name: 'service', Value: 'career-program' }],
      Statistic: 'Maximum',
      Period: 86400,
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 2,
      DatapointsToAlarm: 2,
      TreatMissingData: 'notBreaching',
      AlarmActions: [topicRef(prod, 'counter-drift')],
    });
    expect(severityOf('counter-drift')).toBe('ticket');
    expect(alarm(prod, 'ReconcileErrors')).toMatchObject({
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: fnRef(prod, 'reconcile') }],
      AlarmActions: [topicRef(prod, 'counter-reconciliation-failing')],
    });
    expect(severityOf('counter-reconciliation-failing')).toBe('ticket');
  });

  it('the reminder queue always has its age and dead-letter alarms; WAF blocks only once a web ACL is passed', () => {
    const ids = (s: SynthesizedStack) => Object.keys(alarmsOf(s)).join(' ');
    expect(ids(prod)).not.toContain('WafBlocks');
    const queueName = (queue: { queue: IConstruct }) => ({ 'Fn::GetAtt': [prod.idOf(queue.queue), 'QueueName'] });
    expect(alarm(prod, 'ReminderQueueAge')).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateAgeOfOldestMessage',
      Dimensions: [{ Name: 'QueueName', Value: queueName(prod.stack.reminderQueue) }],
      // the day's reminders drain at the bulk share of the send rate: 50 000 due ÷ (50 % of 14 a second), plus an hour
      Threshold: Math.ceil(50_000 / 7) + 3600,
    });
    // a stack that expects more reminders, sent faster
    expect(alarm(full, 'ReminderQueueAge').Threshold).toBe(Math.ceil(140_000 / 35) + 3600);
    expect(alarm(prod, 'ReminderDeadLetters')).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [prod.idOf(prod.stack.reminderQueue.deadLetterQueue), 'QueueName'] } }],
      Threshold: 1,
    });
    expect(alarm(full, 'WafBlocks')).toMatchObject({
      Namespace: 'AWS/WAFV2',
      MetricName: 'BlockedRequests',
      Dimensions: [
        { Name: 'Rule', Value: 'ALL' },
        { Name: 'WebACL', Value: 'career-program-site' },
      ],
      Threshold: 100,
    });
    for (const { Properties: a } of Object.values(alarmsOf(full))) {
      expect(a.AlarmDescription).toMatch(
        /\nRunbook: https:\/\/git\.example\.com\/career-program\/blob\/main\/docs\/runbook\.md#[a-z0-9-]+$/,
      );
      expect(ANCHORS.has(String(a.AlarmDescription).split('#').pop()!)).toBe(true);
    }
  });

  it('the WAF alarm can be built alone for the us-east-1 companion stack, the same way', () => {
    const companion = new Stack(new App(), 'Edge', { env: { region: 'us-east-1' } });
    const topic = new Topic(companion, 'Alarms');
    wafBlocksAlarm(companion, 'WafBlocks', {
      webAclMetricName: 'career-program-site',
      topics: { ticket: topic, page: new Topic(companion, 'Page') },
    });
    Template.fromStack(companion).hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/WAFV2',
      MetricName: 'BlockedRequests',
      Threshold: 100,
      AlarmActions: [{ Ref: companion.getLogicalId(topic.node.defaultChild as CfnTopic) }],
      OKActions: [{ Ref: companion.getLogicalId(topic.node.defaultChild as CfnTopic) }],
      AlarmDescription: Match.stringLikeRegexp('Runbook: docs/runbook.md#waf-blocks$'),
    });
  });

  it('mail the alarmEmail context address through both encrypted-in-transit SNS topics, the page topic also to pageEmail', () => {
    expect(prod.template.findResources('AWS::SNS::Subscription', { Properties: { Protocol: 'email' } })).toEqual({});
    const subscriptions = resourceList(full.template, 'AWS::SNS::Subscription', { Properties: { Protocol: 'email' } }).map((sub) => [
      sub.Properties.Endpoint,
      sub.Properties.TopicArn,
    ]);
    const { page, ticket } = full.stack.monitoring.topics;
    expect(subscriptions).toEqual(
      expect.arrayContaining([
        ['ops@example.com', { Ref: full.idOf(ticket) }],
        ['ops@example.com', { Ref: full.idOf(page) }],
        ['pager@example.com', { Ref: full.idOf(page) }],
      ]),
    );
    expect(subscriptions).toHaveLength(3);
    for (const topic of [page, ticket])
      expect(resourceOf(full.template, 'AWS::SNS::Topic', full.idOf(topic)).Properties.DisplayName).toMatch(/\((page|ticket)\)$/);
  });
});

describe('cost guardrails', () => {
  const ticketRef = (s: SynthesizedStack) => ({ Ref: s.idOf(s.stack.monitoring.topics.ticket) });
  const budgetOf = (s: SynthesizedStack) => {
    const [budget] = resourceList(s.template, 'AWS::Budgets::Budget');
    return budget;
  };

  it('a monthly cost budget notifies the ticket topic of the actual and the forecast cost above it, 200 USD by default', () => {
    for (const [s, amount] of [
      [prod, 200],
      [full, 900],
    ] as const) {
      expect(resourceList(s.template, 'AWS::Budgets::Budget')).toHaveLength(1);
      const budget = budgetOf(s);
      expect(at(budget.Properties, 'Budget')).toMatchObject({
        BudgetType: 'COST',
        TimeUnit: 'MONTHLY',
        BudgetLimit: { Amount: amount, Unit: 'USD' },
      });
      const ticket = ticketRef(s);
      const notifications = asObjects(budget.Properties.NotificationsWithSubscribers, 'NotificationsWithSubscribers');
      expect(notifications.map((n) => at(n, 'Notification', 'NotificationType')).sort()).toEqual(['ACTUAL', 'FORECASTED']);
      for (const n of notifications) {
        expect(at(n, 'Notification')).toMatchObject({ ComparisonOperator: 'GREATER_THAN', Threshold: 100, ThresholdType: 'PERCENTAGE' });
        expect(at(n, 'Subscribers')).toEqual([{ SubscriptionType: 'SNS', Address: ticket }]);
      }
    }
  });

  it('AWS Budgets may publish to the ticket topic before the budget is created', () => {
    const ticket = ticketRef(prod);
    const [policyId, policy] = Object.entries(resourcesOf(prod.template, 'AWS::SNS::TopicPolicy')).find(
      ([, p]) => JSON.stringify(p.Properties.Topics) === JSON.stringify([ticket]),
    )!;
    const statements = asObjects(at(policy.Properties, 'PolicyDocument', 'Statement'), 'Statement');
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'budgets.amazonaws.com' },
        Action: 'sns:Publish',
        Resource: ticket,
      }),
    );
    expect(budgetOf(prod).DependsOn).toContain(policyId);
  });

  it('caps the on-demand throughput of the table and of every index, by context', () => {
    for (const [s, table, index] of [
      [prod, { MaxReadRequestUnits: 12_000, MaxWriteRequestUnits: 8_000 }, { MaxReadRequestUnits: 4_000, MaxWriteRequestUnits: 4_000 }],
      [full, { MaxReadRequestUnits: 3000, MaxWriteRequestUnits: 2000 }, { MaxReadRequestUnits: 1000, MaxWriteRequestUnits: 500 }],
    ] as const) {
      const [resource] = resourceList(s.template, 'AWS::DynamoDB::Table');
      expect(resource.Properties.OnDemandThroughput).toEqual(table);
      const indexes = asObjects(resource.Properties.GlobalSecondaryIndexes, 'GlobalSecondaryIndexes');
      expect(indexes).toHaveLength(GSIS.length);
      for (const gsi of indexes) expect(gsi.OnDemandThroughput, asString(gsi.IndexName, 'IndexName')).toEqual(index);
    }
  });

  it("alarms (ticket) on the account's CloudWatch Logs ingestion sustained for 3 hours", () => {
    for (const [s, gb] of [
      [prod, 1],
      [full, 4],
    ] as const) {
      const a = alarm(s, 'LogIngestion');
      expect(a).toMatchObject({ Namespace: 'AWS/Logs', MetricName: 'IncomingBytes', Statistic: 'Sum', Period: 3600 });
      expect(a.Dimensions).toBeUndefined();
      expect(a).toMatchObject({ Threshold: gb * 1024 ** 3, EvaluationPeriods: 3, DatapointsToAlarm: 3 });
      expect(a.AlarmActions).toEqual([topicRef(s, 'log-ingestion')]);
      expect(severityOf('log-ingestion')).toBe('ticket');
    }
  });
});

describe('saved Logs Insights queries', () => {
  it("are the runbook's queries, each named by its section under the stack's folder, over every function's and the API's log group", () => {
    const saved = resourceList(prod.template, 'AWS::Logs::QueryDefinition').map((q) => q.Properties);
    const inRunbook = runbookQueries(RUNBOOK);
    expect(inRunbook.length).toBeGreaterThanOrEqual(15);
    expect(saved.map((q) => [q.Name, q.QueryString])).toEqual(inRunbook.map((q) => [`TestStack/${q.name}`, q.query]));
    expect(new Set(saved.map((q) => q.Name)).size).toBe(saved.length);
    expect(inRunbook.map((q) => q.name)).toEqual(expect.arrayContaining(['API 5xx rate 1', 'API 5xx rate 2', 'Purge queue age']));
    const groups = [...FUNCTIONS.map((name) => prod.stack.functions[name].logGroup), prod.stack.api.accessLogs].map((group) => ({
      Ref: prod.idOf(group),
    }));
    for (const query of saved) expect(query.LogGroupNames).toEqual(groups);
  });

  it('take only the blocks that are queries, not the shell commands beside them', () => {
    const markdown =
      '### One\n\n```\nfields a\n| limit 1\n```\n\n```\nnpm ci\n```\n\n### Two\n\n```\nfilter b\n```\n\n```\nstats count()\n```\n';
    expect(runbookQueries(markdown)).toEqual([
      { name: 'One', query: 'fields a\n| limit 1' },
      { name: 'Two 1', query: 'filter b' },
      { name: 'Two 2', query: 'stats count()' },
    ]);
  });
});

describe('tracing and logs', () => {
  it('every product function has active X-Ray tracing and may write traces', () => {
    const fns = resourcesOf(prod.template, 'AWS::Lambda::Function');
    for (const name of FUNCTIONS) {
      expect(fns[prod.idOf(prod.stack.functions[name].fn)].Properties.TracingConfig, name).toEqual({ Mode: 'Active' });
    }
    const xray = resourceList(prod.template, 'AWS::IAM::Policy').filter((p) =>
      asObjects(at(p.Properties, 'PolicyDocument', 'Statement'), 'Statement').some((st) =>
        [st.Action].flat().includes('xray:PutTraceSegments'),
      ),
    );
    expect(xray.length).toBe(FUNCTIONS.length);
  });

  it('every Lambda in the stack, the CDK-managed ones included, logs to a log group with a retention', () => {
    for (const s of [prod, synthStack({ stage: 'dev' })]) {
      const groups = resourcesOf(s.template, 'AWS::Logs::LogGroup');
      for (const [id, group] of Object.entries(groups)) expect(group.Properties.RetentionInDays, id).toBeGreaterThan(0);
      for (const [id, fn] of Object.entries(resourcesOf(s.template, 'AWS::Lambda::Function'))) {
        const ref = maybeAt(fn.Properties, 'LoggingConfig', 'LogGroup', 'Ref');
        expect(ref, id).toBeTypeOf('string');
        expect(groups[ref as string], id).toBeDefined();
      }
    }
  });
});

describe('dashboard', () => {
  it('charts the API, every function, DynamoDB, SES, the business metrics and the alarms', () => {
    const dashboards = resourceList(prod.template, 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0].Properties.DashboardBody);
    for (const text of [
      'AWS/ApiGateway',
      '5xx',
      'Latency',
      'AWS/Lambda',
      'ThrottledRequests',
      'SystemErrors',
      'Reputation.BounceRate',
      'Reputation.ComplaintRate',
      'filter level = ',
    ]) {
      expect(body, text).toContain(text);
    }
    for (const name of Object.values(METRIC)) expect(body, name).toContain(`\\"${name}\\"`);
    for (const name of FUNCTIONS) expect(body, name).toContain(prod.idOf(prod.stack.functions[name].fn));
    expect(body).toContain(METRICS_NAMESPACE);
    // The alarm status widget lists every alarm.
    for (const a of prod.stack.monitoring.alarms) expect(body).toContain(prod.idOf(a));
  });
});

describe('SES configuration set and bounce handling', () => {
  it('sends every email with the configuration set, whose bounces and complaints reach the handler', () => {
    const setId = prod.idOf(prod.stack.mailEvents.configurationSet);
    prod.template.hasResourceProperties('AWS::SES::ConfigurationSet', { ReputationOptions: { ReputationMetricsEnabled: true } });
    prod.template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      ConfigurationSetName: { Ref: setId },
      EventDestination: {
        Enabled: true,
        MatchingEventTypes: ['bounce', 'complaint'],
        SnsDestination: { TopicARN: { Ref: prod.idOf(prod.stack.mailEvents.topic) } },
      },
    });
    prod.template.hasResourceProperties('AWS::SNS::Topic', {
      KmsMasterKeyId: { 'Fn::GetAtt': [prod.idOf(prod.stack.mailEvents.key), 'Arn'] },
    });
    prod.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'lambda',
      TopicArn: { Ref: prod.idOf(prod.stack.mailEvents.topic) },
      Endpoint: { 'Fn::GetAtt': [prod.idOf(prod.stack.functions.mailEvents.fn), 'Arn'] },
    });
    const policies = JSON.stringify(prod.template.findResources('AWS::SNS::TopicPolicy'));
    expect(policies).toContain('ses.amazonaws.com');
    const keyPolicy = JSON.stringify(prod.template.findResources('AWS::KMS::Key'));
    expect(keyPolicy).toContain('ses.amazonaws.com');
    for (const name of FUNCTIONS) {
      const fn = resourceOf(prod.template, 'AWS::Lambda::Function', prod.idOf(prod.stack.functions[name].fn));
      expect(at(fn.Properties, 'Environment', 'Variables', 'SES_CONFIGURATION_SET'), name).toEqual({ Ref: setId });
    }
  });

  it('keeps the events SNS cannot deliver or the handler fails on in one alarmed dead-letter queue', () => {
    const dlq = prod.idOf(prod.stack.mailEvents.deadLetterQueue);
    const dlqArn = { 'Fn::GetAtt': [dlq, 'Arn'] };
    prod.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'lambda',
      TopicArn: { Ref: prod.idOf(prod.stack.mailEvents.topic) },
      RedrivePolicy: { deadLetterTargetArn: dlqArn },
    });
    const handler = resourceOf(prod.template, 'AWS::Lambda::Function', prod.idOf(prod.stack.functions.mailEvents.fn));
    expect(at(handler.Properties, 'DeadLetterConfig', 'TargetArn')).toEqual(dlqArn);
    const sends = policyStatements(prod.template).filter(({ statement }) => JSON.stringify(statement.Resource) === JSON.stringify(dlqArn));
    expect(sends.map(({ statement }) => statement.Action)).toEqual(['sqs:SendMessage']);
    expect(alarm(prod, 'MailEventDeadLetters')).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlq, 'QueueName'] } }],
      Threshold: 1,
    });
  });
});

describe('stages', () => {
  it('prod keeps the table and the site bucket, protects the table and sizes the API for production', () => {
    const [table] = resourceList(prod.template, 'AWS::DynamoDB::Table');
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.Properties.DeletionProtectionEnabled).toBe(true);
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    const bucket = resourceOf(prod.template, 'AWS::S3::Bucket', prod.idOf(prod.stack.site.bucket));
    expect(bucket.DeletionPolicy).toBe('Retain');
    expect(prod.template.findResources('Custom::S3AutoDeleteObjects')).toEqual({});
    prod.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 2000, ThrottlingBurstLimit: 4000 },
    });
  });

  it('dev can be torn down: nothing retained, no deletion protection, smaller throttles and retention', () => {
    const dev = synthStack({ stage: 'dev' });
    const [table] = resourceList(dev.template, 'AWS::DynamoDB::Table');
    expect(table.DeletionPolicy).toBe('Delete');
    expect(table.Properties.DeletionProtectionEnabled).toBe(false);
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    const bucket = resourceOf(dev.template, 'AWS::S3::Bucket', dev.idOf(dev.stack.site.bucket));
    expect(bucket.DeletionPolicy).toBe('Delete');
    expect(Object.keys(dev.template.findResources('Custom::S3AutoDeleteObjects'))).toHaveLength(4); // site, access logs, canary artifacts, exports
    const retained = Object.entries(allResources(dev.template)).filter(([, r]) => r.DeletionPolicy === 'Retain');
    expect(retained.map(([id]) => id)).toEqual([]);
    dev.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 },
    });
    const groups = resourceList(dev.template, 'AWS::Logs::LogGroup');
    for (const group of groups) expect(group.Properties.RetentionInDays).toBe(14);
    expect(new AwsSolutionsChecks().validateScope(dev.stack).violations.map((v) => v.ruleName)).toEqual([]);
  });

  it('refuses an unknown stage', () => {
    const unknownStage: string = 'staging';
    expect(() => synthStack({ stage: unknownStage as StageName })).toThrow(/stage must be "dev" or "prod"/);
  });
});

describe('cdk-nag', () => {
  it('stays clean with every optional alarm wired', () => {
    const report = new AwsSolutionsChecks().validateScope(full.stack);
    expect(report.violations.map((v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  });
});
