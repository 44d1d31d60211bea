import { Duration, Stack } from 'aws-cdk-lib';
import { CfnBudget } from 'aws-cdk-lib/aws-budgets';
import { type Alarm, Metric, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { AlarmSpec } from './monitoring';

/** The runbook section of the log-ingestion alarm (docs/runbook.md#log-ingestion). */
export const LOG_INGESTION_RUNBOOK = 'log-ingestion';

export interface CostGuardrailsProps {
  /** The ticket topic: a cost running ahead waits for working hours, nothing is lost meanwhile. */
  ticketTopic: ITopic;
  /** The account's monthly cost budget, US dollars: actual and forecast notifications above it. */
  monthlyBudgetUsd: number;
  /** CloudWatch Logs ingestion per hour, GB, that is a runaway when sustained for three hours. */
  logIngestionGbPerHour: number;
  /** Creates an alarm the stack's way (Monitoring.alarm): topic by severity, runbook link. */
  alarm: (id: string, metric: IMetric, spec: AlarmSpec) => Alarm;
}

/**
 * docs/runbook.md#cost-guardrails: an AWS Budgets monthly cost budget whose actual and forecast
 * notifications go to the ticket topic, and an alarm on the account's CloudWatch Logs ingestion
 * (a log loop costs before anything else shows it). The table's on-demand maximum throughput is
 * the third guardrail (infra/constructs/data-table.ts).
 */
export class CostGuardrails extends Construct {
  readonly budget: CfnBudget;
  readonly logIngestionAlarm: Alarm;

  constructor(scope: Construct, id: string, props: CostGuardrailsProps) {
    super(scope, id);
    const stack = Stack.of(this);
    // AWS Budgets publishes as its service principal; it checks the permission when the budget is created.
    const { policyDependable } = props.ticketTopic.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('budgets.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [props.ticketTopic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: { 'aws:SourceArn': `arn:${stack.partition}:budgets::${stack.account}:*` },
        },
      }),
    );
    const notify = (notificationType: 'ACTUAL' | 'FORECASTED') => ({
      notification: { notificationType, comparisonOperator: 'GREATER_THAN', threshold: 100, thresholdType: 'PERCENTAGE' },
      subscribers: [{ subscriptionType: 'SNS', address: props.ticketTopic.topicArn }],
    });
    // Costs are the account's (a budget cannot be scoped to a stack without cost-allocation tags
    // activated by hand): one budget per stack name, so dev and prod in one account each warn.
    this.budget = new CfnBudget(this, 'MonthlyBudget', {
      budget: {
        budgetName: `${stack.stackName}-monthly`,
        budgetType: 'COST',
        timeUnit: 'MONTHLY',
        budgetLimit: { amount: props.monthlyBudgetUsd, unit: 'USD' },
      },
      notificationsWithSubscribers: [notify('ACTUAL'), notify('FORECASTED')],
    });
    if (policyDependable) this.budget.node.addDependency(policyDependable);

    // IncomingBytes without a dimension: every log group of the account in this region.
    const incoming = new Metric({ namespace: 'AWS/Logs', metricName: 'IncomingBytes', statistic: 'Sum', period: Duration.hours(1) });
    this.logIngestionAlarm = props.alarm('LogIngestion', incoming, {
      threshold: props.logIngestionGbPerHour * 1024 ** 3,
      evaluationPeriods: 3,
      datapointsToAlarm: 3,
      meaning: `CloudWatch Logs took in more than ${props.logIngestionGbPerHour} GB an hour for 3 hours: a log loop or a debug level left on is running up the ingestion bill.`,
      runbook: LOG_INGESTION_RUNBOOK,
    });
  }
}
