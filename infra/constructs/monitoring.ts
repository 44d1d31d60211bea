import { Duration, Stack } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  LogQueryWidget,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { createAlarmTopics, severityOf, type SeverityTopics } from './alarm-severity';
import { METRIC, METRICS_NAMESPACE, METRICS_SERVICE, type MetricName } from '../../shared/metric-names';

/** One of the stack's Lambdas, as monitoring needs it. */
export interface MonitoredFunction {
  /** Short name used in alarm ids and widget labels, e.g. `auth`. */
  name: string;
  fn: IFunction;
  timeout: Duration;
  logGroup: ILogGroup;
  /** Runbook section of its errors alarm; default `function-errors`. */
  errorsRunbook?: string;
  /** What its errors mean, when more specific than "the function failed". */
  errorsMeaning?: string;
  /**
   * A worker that runs until its time is nearly up and continues in a next invocation (purge,
   * erasure, reminder worker): its duration sits near the timeout on every normal run, so it is
   * watched for the runtime's `Task timed out` line instead of its p99 duration.
   */
  usesWholeBudget?: boolean;
}

export interface MonitoringProps {
  /** Subscribed to both alarm topics by email (context `alarmEmail`); the address confirms once per topic. */
  alarmEmail?: string;
  /** Subscribed to the page topic too (context `pageEmail`): a pager's or on-call phone's email address. */
  pageEmail?: string;
  /** Where docs/runbook.md is read (e.g. the repository's web view); alarm descriptions append `#section`. */
  runbookUrl?: string;
  api: IHttpApi;
  /** The API's access log group (JSON lines with `status`): its 403 answers are counted from it. */
  apiAccessLogs?: ILogGroup;
  table: ITable;
  functions: MonitoredFunction[];
  /** The reminder fan-out queue and its dead-letter queue, once reminders run through SQS. */
  reminderQueue?: IQueue;
  reminderDeadLetterQueue?: IQueue;
  /** How long the day's reminders take to drain at the send rate (`reminderDrainSeconds`); default one hour. */
  reminderDrainSeconds?: number;
  /** Bounce and complaint events the handler could not take (infra/constructs/mail-events.ts). */
  mailEventsDeadLetterQueue?: IQueue;
  /** The mail streams' configuration sets (infra/constructs/mail-events.ts): reputation alarms of their own. */
  mailStreams?: Array<{ name: 'Transactional' | 'Bulk'; configurationSetName: string; meaning: string }>;
  /**
   * The metric name of the web ACL in front of the site (its VisibilityConfig MetricName, not
   * its name). Its BlockedRequests metric lives in the ACL's region (us-east-1 for CloudFront):
   * the alarm only sees it when this stack is there too; otherwise build it in the companion
   * stack with `wafBlocksAlarm` (docs/runbook.md).
   */
  webAclMetricName?: string;
  /** Failed sign-ins per 5 minutes that count as a spike; default 50. */
  failedSignInsPerFiveMinutes?: number;
}

/** The DynamoDB operations the code issues (functions/lib/db.ts never scans). */
const TABLE_OPERATIONS = [
  'GetItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'Query',
  'BatchGetItem',
  'BatchWriteItem',
  'TransactWriteItems',
];

const FIVE_MINUTES = Duration.minutes(5);

/** Extra time a reminder may wait beyond the expected drain time before the age alarm fires. */
export const REMINDER_DRAIN_MARGIN_SECONDS = 3600;

/**
 * How long the day's reminders take to send: due reminders ÷ the account's send rate (the
 * workers share it). A reminder older than this plus REMINDER_DRAIN_MARGIN_SECONDS is late.
 */
export function reminderDrainSeconds(dueReminders: number, sendRatePerSecond: number): number {
  return Math.ceil(dueReminders / sendRatePerSecond);
}

/** Where the `Task timed out` counts of the workers go (one metric per function, from its log group). */
export const TIMEOUTS_NAMESPACE = 'CareerProgram/Timeouts';
/** What the Lambda runtime logs when it ends an invocation at its timeout. */
export const TIMED_OUT_LINE = 'Task timed out';
/** The API's 403 answers, counted from its access log. */
export const API_NAMESPACE = 'CareerProgram/Api';

/** The SES reputation rates (fractions) of the ticket tier, below the pages at 5 % bounces and 0.1 % complaints. */
export const SES_WARNING_RATES = { bounce: 0.02, complaint: 0.0005 } as const;

/** A business metric of functions/lib/metrics.ts (EMF, one namespace, `service` dimension only). */
export function businessMetric(name: MetricName, period = FIVE_MINUTES, label?: string): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { service: METRICS_SERVICE },
    statistic: 'Sum',
    period,
    label,
  });
}

/**
 * WAF blocked requests of a web ACL (all rules), for this stack or the us-east-1 companion.
 * WAF publishes under the ACL's visibility metric name as the `WebACL` dimension (a CloudFront
 * ACL has no `Region` dimension), never under the ACL's name.
 */
export function wafBlockedRequests(webAclMetricName: string, period = FIVE_MINUTES): Metric {
  return new Metric({
    namespace: 'AWS/WAFV2',
    metricName: 'BlockedRequests',
    dimensionsMap: { WebACL: webAclMetricName, Rule: 'ALL' },
    statistic: 'Sum',
    period,
  });
}

export interface AlarmSpec {
  threshold: number;
  meaning: string;
  /** Section anchor in docs/runbook.md; it also sets the alarm's severity (infra/constructs/alarm-severity.ts). */
  runbook: string;
  evaluationPeriods?: number;
  datapointsToAlarm?: number;
  comparisonOperator?: ComparisonOperator;
  /** Default: no data is no traffic, not an incident. */
  treatMissingData?: TreatMissingData;
}

/**
 * One alarm the project's way: meaning + runbook link in the description, the topic of its
 * severity (by its runbook section) on ALARM and OK.
 */
export function operatorAlarm(
  scope: Construct,
  id: string,
  metric: IMetric,
  spec: AlarmSpec,
  topics: SeverityTopics,
  runbookUrl = 'docs/runbook.md',
): Alarm {
  const topic = topics[severityOf(spec.runbook)];
  const alarm = new Alarm(scope, id, {
    metric,
    threshold: spec.threshold,
    evaluationPeriods: spec.evaluationPeriods ?? 1,
    datapointsToAlarm: spec.datapointsToAlarm,
    comparisonOperator: spec.comparisonOperator ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    // No data means no traffic, no errors: not an incident (unless the spec says otherwise).
    treatMissingData: spec.treatMissingData ?? TreatMissingData.NOT_BREACHING,
    alarmDescription: `${spec.meaning}\nRunbook: ${runbookUrl}#${spec.runbook}`,
  });
  alarm.addAlarmAction(new SnsAction(topic));
  alarm.addOkAction(new SnsAction(topic));
  return alarm;
}

const WAF_BLOCKS: AlarmSpec = {
  threshold: 100,
  meaning: 'The web application firewall blocked over 100 requests in 5 minutes: an attack, or a rule blocking real learners.',
  runbook: 'waf-blocks',
};

/**
 * The WAF blocks alarm on its own, for the stack that holds the web ACL when that is not this one
 * (a CloudFront web ACL lives in us-east-1, and an alarm only sees metrics of its own region):
 * give it the topics in that region (subscribed to the same emails).
 */
export function wafBlocksAlarm(
  scope: Construct,
  id: string,
  props: { webAclMetricName: string; topics: SeverityTopics; runbookUrl?: string },
): Alarm {
  return operatorAlarm(scope, id, wafBlockedRequests(props.webAclMetricName), WAF_BLOCKS, props.topics, props.runbookUrl);
}

/** Days before CloudFront's client certificate expires when its alarm fires (docs/runbook.md#origin-client-certificate-expiring). */
export const ORIGIN_CERTIFICATE_WARNING_DAYS = 30;

const ORIGIN_CERTIFICATE_EXPIRING: AlarmSpec = {
  threshold: ORIGIN_CERTIFICATE_WARNING_DAYS,
  comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
  meaning: `CloudFront's client certificate for the API's domain expires in under ${ORIGIN_CERTIFICATE_WARNING_DAYS} days: ACM does not renew an imported certificate, and once it has expired CloudFront cannot reach the API (every /api call fails).`,
  runbook: 'origin-client-certificate-expiring',
};

/**
 * The expiry alarm of CloudFront's client certificate (origin mutual TLS, docs/runbook.md#api-origin).
 * ACM publishes `DaysToExpiry` once a day in the certificate's region, us-east-1: the alarm lives
 * in the edge stack, with its topics.
 */
export function originCertificateExpiryAlarm(
  scope: Construct,
  id: string,
  props: { certificateArn: string; topics: SeverityTopics; runbookUrl?: string },
): Alarm {
  const daysToExpiry = new Metric({
    namespace: 'AWS/CertificateManager',
    metricName: 'DaysToExpiry',
    dimensionsMap: { CertificateArn: props.certificateArn },
    statistic: 'Minimum',
    period: Duration.days(1),
  });
  return operatorAlarm(scope, id, daysToExpiry, ORIGIN_CERTIFICATE_EXPIRING, props.topics, props.runbookUrl);
}

/**
 * Alarms, their SNS topics and the operations dashboard (docs/runbook.md has a section per alarm:
 * what it means, first checks with Logs Insights queries, what to do). Every alarm notifies the
 * topic of its severity (page or ticket) on ALARM and again on OK, so the operator also learns
 * when it is over.
 */
export class Monitoring extends Construct {
  /** The page and ticket topics (infra/constructs/alarm-severity.ts). */
  readonly topics: SeverityTopics;
  readonly dashboard: Dashboard;
  readonly alarms: Alarm[] = [];
  private readonly runbookUrl: string;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    this.runbookUrl = props.runbookUrl ?? 'docs/runbook.md';
    this.topics = createAlarmTopics(this, {
      displayName: 'Career program alarms',
      alarmEmail: props.alarmEmail,
      pageEmail: props.pageEmail,
    });

    // ---- API --------------------------------------------------------------------------------
    const requests = props.api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    const serverErrors = props.api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    const clientErrors = props.api.metricClientError({ period: FIVE_MINUTES, statistic: 'Sum' });
    const errorRate = new MathExpression({
      // Under 20 requests in 5 minutes a rate is noise; a crashing function still trips its errors alarm.
      expression: 'IF(requests >= 20, 100 * errors / requests, 0)',
      usingMetrics: { requests, errors: serverErrors },
      period: FIVE_MINUTES,
      label: '5xx rate (%)',
    });
    this.alarm('Api5xxRate', errorRate, {
      threshold: 1,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      meaning: 'More than 1 % of API requests answered 5xx in 2 of the last 3 five-minute periods: learners see "Something went wrong".',
      runbook: 'api-5xx-rate',
    });
    if (props.apiAccessLogs) {
      const forbidden = new MetricFilter(this, 'ApiForbiddenFilter', {
        logGroup: props.apiAccessLogs,
        filterPattern: FilterPattern.stringValue('$.status', '=', '403'),
        metricNamespace: API_NAMESPACE,
        metricName: 'Forbidden',
        metricValue: '1',
      }).metric({ period: FIVE_MINUTES, statistic: 'Sum' });
      // A 403 is normal now and then (a learner on an admin URL, a foreign Origin); most requests
      // answered 403 means the origin guard refuses CloudFront: its secret and CloudFront's differ.
      this.alarm(
        'Api403Rate',
        new MathExpression({
          expression: 'IF(requests >= 20, 100 * forbidden / requests, 0)',
          usingMetrics: { requests, forbidden },
          period: FIVE_MINUTES,
          label: '403 rate (%)',
        }),
        {
          threshold: 25,
          evaluationPeriods: 3,
          datapointsToAlarm: 2,
          meaning:
            'A quarter or more of API requests answered 403 in 2 of the last 3 five-minute periods: most likely the origin guard refuses CloudFront (origin secret rotated without a deploy), and every /api call fails.',
          runbook: 'api-403-rate',
        },
      );
    }
    const latencyP95 = props.api.metricLatency({ period: FIVE_MINUTES, statistic: 'p95' });
    this.alarm('ApiLatencyP95', latencyP95, {
      threshold: 2000,
      evaluationPeriods: 3,
      meaning: 'The 95th percentile of API latency stayed above 2 s for 15 minutes: pages feel slow or time out.',
      runbook: 'api-latency-p95',
    });

    // ---- Functions --------------------------------------------------------------------------
    for (const f of props.functions) {
      const label = capitalize(f.name);
      this.alarm(`${label}Errors`, f.fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }), {
        threshold: 1,
        meaning: f.errorsMeaning ?? `The ${f.name} Lambda failed (an unhandled error or a timeout, not a mapped 4xx/5xx answer).`,
        runbook: f.errorsRunbook ?? 'function-errors',
      });
      this.alarm(`${label}Throttles`, f.fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }), {
        threshold: 1,
        meaning: `Lambda refused to run the ${f.name} function for lack of concurrency: those requests failed with 5xx or were retried.`,
        runbook: 'function-throttles',
      });
      const limitMs = f.timeout.toMilliseconds();
      if (f.usesWholeBudget) {
        const timedOut = new MetricFilter(this, `${label}TimedOutFilter`, {
          logGroup: f.logGroup,
          filterPattern: FilterPattern.literal(`"${TIMED_OUT_LINE}"`),
          metricNamespace: TIMEOUTS_NAMESPACE,
          metricName: f.name,
          metricValue: '1',
        });
        this.alarm(`${label}TimedOut`, timedOut.metric({ period: FIVE_MINUTES, statistic: 'Sum' }), {
          threshold: 1,
          meaning: `The ${f.name} worker was stopped at its ${limitMs / 1000} s timeout ("${TIMED_OUT_LINE}") instead of stopping itself before it: one step outlasted the margin it keeps.`,
          runbook: 'worker-timed-out',
        });
        continue;
      }
      this.alarm(`${label}DurationNearTimeout`, f.fn.metricDuration({ period: FIVE_MINUTES, statistic: 'p99' }), {
        threshold: Math.round(limitMs * 0.8),
        meaning: `The ${f.name} function's p99 duration passed 80 % of its ${limitMs / 1000} s timeout: next it times out.`,
        runbook: 'function-duration',
      });
    }

    // ---- DynamoDB ---------------------------------------------------------------------------
    const tableThrottles = props.table.metricThrottledRequestsForOperations({
      operations: TABLE_OPERATIONS as never,
      period: FIVE_MINUTES,
    });
    this.alarm('TableThrottles', tableThrottles, {
      threshold: 1,
      meaning: 'DynamoDB throttled requests on the table (a hot partition or an account limit): the API answers 503 "unavailable".',
      runbook: 'dynamodb-throttles',
    });
    const tableSystemErrors = props.table.metricSystemErrorsForOperations({ operations: TABLE_OPERATIONS as never, period: FIVE_MINUTES });
    this.alarm('TableSystemErrors', tableSystemErrors, {
      threshold: 1,
      meaning: 'DynamoDB answered 500 (its own failure) to the table requests.',
      runbook: 'dynamodb-system-errors',
    });

    // ---- SES reputation (account-wide figures SES itself acts on) ---------------------------
    const bounceRate = new Metric({
      namespace: 'AWS/SES',
      metricName: 'Reputation.BounceRate',
      statistic: 'Maximum',
      period: Duration.hours(1),
    });
    this.alarm('SesBounceRate', bounceRate, {
      threshold: 0.05,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      meaning: 'The SES bounce rate is above 5 %. At 10 % SES may pause sending for the account: sign-in codes would stop.',
      runbook: 'ses-bounce-rate',
    });
    const complaintRate = new Metric({
      namespace: 'AWS/SES',
      metricName: 'Reputation.ComplaintRate',
      statistic: 'Maximum',
      period: Duration.hours(1),
    });
    this.alarm('SesComplaintRate', complaintRate, {
      threshold: 0.001,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      meaning: 'The SES complaint rate is above 0.1 %. At 0.5 % SES may pause sending for the account.',
      runbook: 'ses-complaint-rate',
    });

    // The warning tier: a rate on its way to the page, while there is time to act in working hours.
    this.alarm('SesBounceRateWarning', bounceRate, {
      threshold: SES_WARNING_RATES.bounce,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      meaning: `The SES bounce rate is above ${SES_WARNING_RATES.bounce * 100} % (the page comes at 5 %, SES may pause sending at 10 %): find the addresses that bounce before it climbs.`,
      runbook: 'ses-bounce-rate-warning',
    });
    this.alarm('SesComplaintRateWarning', complaintRate, {
      threshold: SES_WARNING_RATES.complaint,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      meaning: `The SES complaint rate is above ${SES_WARNING_RATES.complaint * 100} % (the page comes at 0.1 %, SES may pause sending at 0.5 %): find which mail draws complaints before it climbs.`,
      runbook: 'ses-complaint-rate-warning',
    });

    // Per mail stream (its configuration set's reputation figures): which stream is hurting the account.
    for (const stream of props.mailStreams ?? []) {
      const perSet = (metricName: string) =>
        new Metric({
          namespace: 'AWS/SES',
          metricName,
          dimensionsMap: { 'ses:configuration-set': stream.configurationSetName },
          statistic: 'Maximum',
          period: Duration.hours(1),
        });
      this.alarm(`Ses${stream.name}BounceRate`, perSet('Reputation.BounceRate'), {
        threshold: 0.05,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        meaning: `The bounce rate of ${stream.meaning} is above 5 %: it drives the account's rate, at 10 % SES may pause all sending.`,
        runbook: 'ses-bounce-rate',
      });
      this.alarm(`Ses${stream.name}ComplaintRate`, perSet('Reputation.ComplaintRate'), {
        threshold: 0.001,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        meaning: `The complaint rate of ${stream.meaning} is above 0.1 %: it drives the account's rate, at 0.5 % SES may pause all sending.`,
        runbook: 'ses-complaint-rate',
      });
    }

    // ---- Reminders ----------------------------------------------------------------------------
    this.alarm('RemindersFailed', businessMetric(METRIC.remindersFailed, Duration.days(1)), {
      threshold: 5,
      meaning: 'Five or more reminder emails failed for good today (after the SES throttling retries).',
      runbook: 'reminders-failing',
    });
    this.alarm('ReminderSlicesUnfinished', businessMetric(METRIC.reminderSlicesUnfinished, Duration.days(1)), {
      threshold: 1,
      meaning:
        "A day's reminder slice was still unfinished when the next day began (its worker dropped it): that day's reminders did not reach all of its learners. The day's work outgrows the send rate or the workers.",
      runbook: 'reminder-slices-unfinished',
    });
    if (props.reminderQueue) {
      const reminderAgeLimit = (props.reminderDrainSeconds ?? 0) + REMINDER_DRAIN_MARGIN_SECONDS;
      this.alarm(
        'ReminderQueueAge',
        props.reminderQueue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: 'Maximum' }),
        {
          threshold: reminderAgeLimit,
          evaluationPeriods: 2,
          meaning: `A reminder has waited in the queue for over ${Math.round(reminderAgeLimit / 60)} minutes (the day's expected drain time at the send rate plus an hour): the senders are failing or throttled, or more reminders are due than the stack expects.`,
          runbook: 'reminder-queue-age',
        },
      );
    }
    if (props.reminderDeadLetterQueue) {
      this.alarm(
        'ReminderDeadLetters',
        props.reminderDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
        {
          threshold: 1,
          meaning: 'Reminder messages failed every retry and sit in the dead-letter queue: those learners were not reminded.',
          runbook: 'reminder-dead-letters',
        },
      );
    }
    if (props.mailEventsDeadLetterQueue) {
      this.alarm(
        'MailEventDeadLetters',
        props.mailEventsDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
        {
          threshold: 1,
          meaning: 'Bounce or complaint events failed every retry and sit in their dead-letter queue: those addresses are not marked yet.',
          runbook: 'mail-event-dead-letters',
        },
      );
    }

    // ---- Counters ----------------------------------------------------------------------------
    // The daily reconciliation's gauge (functions/jobs/reconcile.ts): one datapoint a day. A drift
    // on one day may be a write racing the walk; on two days in a row it is real (and the second
    // run corrected what repeated identically).
    this.alarm('CounterDrift', businessMetric(METRIC.counterDrift, Duration.days(1)).with({ statistic: 'Maximum' }), {
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
      datapointsToAlarm: 2,
      meaning:
        'The daily reconciliation found admin counters that disagree with the accounts two days in a row: a figure of the admin dashboard or a list total was wrong (the second run corrected what drifted by the same amount both days). Something writes the counters wrong, or their stream lost records.',
      runbook: 'counter-drift',
    });

    // ---- Security -----------------------------------------------------------------------------
    const failedSignIns = businessMetric(METRIC.failedSignIns);
    this.alarm('FailedSignInSpike', failedSignIns, {
      threshold: props.failedSignInsPerFiveMinutes ?? 50,
      meaning: 'Failed sign-ins spiked within 5 minutes: possibly credential stuffing (many accounts, few IPs) or a broken login page.',
      runbook: 'failed-sign-in-spike',
    });
    this.alarm('MailBudgetExhausted', businessMetric(METRIC.mailBudgetExhausted), {
      threshold: 1,
      meaning:
        "The mail budget's open share is used up (the SES quota is near its reserved share, or the open mails reached their share of the send rate): verification codes and mails beyond their account's daily allowance are refused with 503; sign-in codes and notices within their allowances still go out. Many accounts or addresses at once is a script; a steady rise is growth that needs a larger SES quota.",
      runbook: 'mail-budget-exhausted',
    });
    this.alarm('SecurityNoticesDeferred', businessMetric(METRIC.securityNoticesDeferred), {
      threshold: 1,
      meaning:
        'A security notice (password changed, passkey added, new sign-in …) could not go out when its change happened and waits for the hourly job: its owner learns of the change late. The open mail share is used up, SES is not sending, or one account had more than its notices for the hour.',
      runbook: 'security-notices-deferred',
    });
    if (props.webAclMetricName) {
      this.alarm('WafBlocks', wafBlockedRequests(props.webAclMetricName), WAF_BLOCKS);
    }

    this.dashboard = this.buildDashboard(props, {
      requests,
      serverErrors,
      clientErrors,
      errorRate,
      tableThrottles,
      tableSystemErrors,
      bounceRate,
      complaintRate,
    });
  }

  /** An alarm on the topic of its severity, listed on the dashboard (also for alarms added after construction). */
  alarm(id: string, metric: IMetric, spec: AlarmSpec): Alarm {
    const alarm = operatorAlarm(this, id, metric, spec, this.topics, this.runbookUrl);
    this.alarms.push(alarm);
    return alarm;
  }

  private buildDashboard(
    props: MonitoringProps,
    m: Record<
      'requests' | 'serverErrors' | 'clientErrors' | 'errorRate' | 'tableThrottles' | 'tableSystemErrors' | 'bounceRate' | 'complaintRate',
      IMetric
    >,
  ): Dashboard {
    const stack = Stack.of(this);
    const dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `${stack.stackName}-operations`,
      defaultInterval: Duration.hours(24),
    });
    const width = 8;
    const graph = (title: string, left: IMetric[], right: IMetric[] = []) => new GraphWidget({ title, left, right, width, height: 6 });
    const perFunction = (pick: (f: MonitoredFunction) => IMetric) => props.functions.map(pick);
    const business = (names: MetricName[]) => names.map((name) => businessMetric(name, FIVE_MINUTES, name));

    dashboard.addWidgets(
      new TextWidget({
        markdown: `# Career program operations\nEach alarm links its section of the runbook: ${this.runbookUrl}`,
        width: 24,
        height: 2,
      }),
    );
    dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24, height: 4 }));
    dashboard.addWidgets(
      graph('API requests and errors', [m.requests, m.clientErrors, m.serverErrors], [m.errorRate]),
      graph('API latency (ms)', [
        props.api.metricLatency({ period: FIVE_MINUTES, statistic: 'p50', label: 'p50' }),
        props.api.metricLatency({ period: FIVE_MINUTES, statistic: 'p95', label: 'p95' }),
        props.api.metricLatency({ period: FIVE_MINUTES, statistic: 'p99', label: 'p99' }),
      ]),
      graph(
        'Lambda errors',
        perFunction((f) => f.fn.metricErrors({ period: FIVE_MINUTES, label: f.name })),
      ),
    );
    dashboard.addWidgets(
      graph(
        'Lambda throttles',
        perFunction((f) => f.fn.metricThrottles({ period: FIVE_MINUTES, label: f.name })),
      ),
      graph(
        'Lambda duration p99 (ms)',
        perFunction((f) => f.fn.metricDuration({ period: FIVE_MINUTES, statistic: 'p99', label: f.name })),
      ),
      graph('DynamoDB consumed capacity', [
        props.table.metricConsumedReadCapacityUnits({ period: FIVE_MINUTES, label: 'RCU' }),
        props.table.metricConsumedWriteCapacityUnits({ period: FIVE_MINUTES, label: 'WCU' }),
      ]),
    );
    // Two widgets: both expressions name their per-operation metrics alike (getitem, …).
    dashboard.addWidgets(
      new GraphWidget({ title: 'DynamoDB throttled requests', left: [m.tableThrottles], width: 12, height: 6 }),
      new GraphWidget({ title: 'DynamoDB system errors', left: [m.tableSystemErrors], width: 12, height: 6 }),
    );
    const ses = (metricName: string) =>
      new Metric({ namespace: 'AWS/SES', metricName, statistic: 'Sum', period: FIVE_MINUTES, label: metricName });
    dashboard.addWidgets(
      graph('SES sending (account)', [ses('Send'), ses('Delivery'), ses('Bounce'), ses('Complaint'), ses('Reject')]),
      graph('SES reputation (bounce 5 %, complaint 0.1 % alarms)', [m.bounceRate], [m.complaintRate]),
      graph(
        'Mail (product)',
        business([
          METRIC.emailsSent,
          METRIC.emailsFailed,
          METRIC.emailsBounced,
          METRIC.emailsComplained,
          METRIC.mailBudgetExhausted,
          METRIC.securityNoticesDeferred,
          METRIC.securityNoticesDropped,
          METRIC.remindersSent,
          METRIC.remindersFailed,
          METRIC.reminderSlicesUnfinished,
        ]),
      ),
    );
    dashboard.addWidgets(
      graph(
        'Sign-in security',
        business([
          METRIC.signIns,
          METRIC.failedSignIns,
          METRIC.loginBackoffs,
          METRIC.lockouts,
          METRIC.refusalsNotAudited,
          METRIC.wrongCodes,
        ]),
      ),
      graph(
        'Learners',
        business([METRIC.registrations, METRIC.verifications, METRIC.passwordResets, METRIC.enrollments, METRIC.moduleCompletions]),
      ),
      graph(
        'Administration and erasure',
        business([METRIC.adminActions, METRIC.hardDeletes, METRIC.purgeStepsFailed, METRIC.erasuresFailed, METRIC.erasureBacklogDays]),
      ),
    );
    // what the table's stream writes after the request (docs/scale-writes.md "Activity off the request path"),
    // and the daily reconciliation of the counters with the accounts
    dashboard.addWidgets(graph('Derived data', business([METRIC.auditReferencesDeferred, METRIC.counterDrift, METRIC.counterCorrections])));
    const optional: GraphWidget[] = [];
    if (props.reminderQueue)
      optional.push(
        graph('Reminder queue: oldest message (s)', [props.reminderQueue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES })]),
      );
    if (props.reminderDeadLetterQueue)
      optional.push(
        graph('Reminder dead letters', [props.reminderDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES })]),
      );
    if (props.webAclMetricName) optional.push(graph('WAF blocked requests', [wafBlockedRequests(props.webAclMetricName)]));
    if (optional.length) dashboard.addWidgets(...optional);
    dashboard.addWidgets(
      new LogQueryWidget({
        title: 'Latest errors (all functions)',
        logGroupNames: props.functions.map((f) => f.logGroup.logGroupName),
        queryLines: [
          'fields @timestamp, service, message, error.message, route, status',
          'filter level = "ERROR"',
          'sort @timestamp desc',
          'limit 50',
        ],
        width: 24,
        height: 6,
      }),
    );
    return dashboard;
  }
}

const capitalize = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);
