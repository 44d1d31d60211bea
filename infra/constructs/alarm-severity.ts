import { Validations } from 'aws-cdk-lib';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';

/**
 * How urgent an alarm is (docs/runbook.md#severities). `page`: learners are failing now, or the
 * account is about to lose a capability (sending mail): someone acts at any hour. `ticket`: work
 * is late or a limit is near; it waits for working hours, nothing is lost meanwhile.
 */
export type Severity = 'page' | 'ticket';
export const SEVERITIES: readonly Severity[] = ['page', 'ticket'];

/**
 * The severity of every alarm, by the runbook section it links (the section says what the alarm
 * means, so alarms that share one share its urgency). The one place severities are set: an alarm
 * whose section is not here fails the synth.
 */
export const ALARM_SEVERITY: Readonly<Record<string, Severity>> = {
  'api-5xx-rate': 'page',
  'api-403-rate': 'page',
  'api-latency-p95': 'ticket',
  'function-errors': 'page',
  'function-throttles': 'page',
  'function-duration': 'ticket',
  'worker-timed-out': 'ticket',
  'dynamodb-throttles': 'page',
  'dynamodb-system-errors': 'page',
  'ses-bounce-rate': 'page',
  'ses-complaint-rate': 'page',
  'ses-bounce-rate-warning': 'ticket',
  'ses-complaint-rate-warning': 'ticket',
  'reminders-failing': 'ticket',
  'erasure-failing': 'ticket',
  'counter-reconciliation-failing': 'ticket',
  'counter-drift': 'ticket',
  'reminder-queue-age': 'ticket',
  'reminder-slices-unfinished': 'ticket',
  'reminder-dead-letters': 'ticket',
  'mail-event-dead-letters': 'ticket',
  'purge-queue-age': 'ticket',
  'purge-dead-letters': 'ticket',
  'purge-steps-failed': 'ticket',
  'erasure-backlog': 'ticket',
  'scheduled-job-dead-letters': 'ticket',
  'schedule-stopped': 'ticket',
  'failed-sign-in-spike': 'page',
  'mail-budget-exhausted': 'page',
  'security-notices-deferred': 'ticket',
  'waf-blocks': 'ticket',
  'origin-client-certificate-expiring': 'ticket',
  'site-canary': 'page',
  'cloudfront-5xx-rate': 'page',
  'cloudfront-4xx-rate': 'ticket',
  'cloudfront-origin-latency': 'ticket',
  'seed-failed': 'ticket',
  'bounce-handler-errors': 'ticket',
  'activity-totals-trailing': 'ticket',
  'stream-records-expiring': 'page',
  'log-ingestion': 'ticket',
};

/** The severity of an alarm that links `runbookSection`; throws for a section without one. */
export function severityOf(runbookSection: string): Severity {
  const severity = ALARM_SEVERITY[runbookSection];
  if (!severity)
    throw new Error(
      `The alarm of runbook section "${runbookSection}" has no severity: add it to ALARM_SEVERITY (infra/constructs/alarm-severity.ts).`,
    );
  return severity;
}

/** Where the alarms of each severity go. */
export type SeverityTopics = Readonly<Record<Severity, ITopic>>;

export interface AlarmTopicsProps {
  /** Receives every alarm, both severities (an SNS email subscription to confirm once per topic). */
  alarmEmail?: string;
  /** Also receives the paging alarms: the address of a pager or on-call phone (its email integration). */
  pageEmail?: string;
  /** Topic display names say which stack (main or edge) they belong to. */
  displayName: string;
}

/**
 * Mails the alarms of `topic` to `email` (the address confirms once). No dead-letter queue: an
 * alarm SNS cannot mail stays visible in CloudWatch (its state and history, the dashboard).
 */
export function subscribeAlarmEmail(topic: ITopic, email: string): void {
  const subscription = topic.addSubscription(new EmailSubscription(email));
  Validations.of(subscription).acknowledge({
    id: 'Serverless-SNSRedrivePolicy',
    reason:
      'Alarm emails: SNS retries the delivery, and an alarm it cannot mail stays in CloudWatch (alarm state and history, the dashboard); a queue of undelivered alarm emails would be read by no one.',
  });
}

/**
 * The two alarm topics of a stack. The ticket topic keeps the id the single topic had
 * (`AlarmTopic`), so its confirmed subscriptions survive; the page topic is `AlarmTopicPage`.
 */
export function createAlarmTopics(scope: Construct, props: AlarmTopicsProps): SeverityTopics {
  const ticket = new Topic(scope, 'AlarmTopic', { displayName: `${props.displayName} (ticket)`, enforceSSL: true });
  const page = new Topic(scope, 'AlarmTopicPage', { displayName: `${props.displayName} (page)`, enforceSSL: true });
  if (props.alarmEmail) for (const topic of [ticket, page]) subscribeAlarmEmail(topic, props.alarmEmail);
  if (props.pageEmail) subscribeAlarmEmail(page, props.pageEmail);
  return { page, ticket };
}
