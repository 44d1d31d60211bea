import { Duration } from 'aws-cdk-lib';
import { ComparisonOperator, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { METRIC } from '../../shared/metric-names';
import { type AlarmSpec, businessMetric } from './monitoring';

/** The background work that fails without a Lambda error (docs/runbook.md "Purge and erasure"). */
export interface BackgroundWork {
  /** Hard-delete continuations (the purge worker reports failures as batch items, not errors). */
  purgeQueue: IQueue;
  purgeDeadLetterQueue: IQueue;
  /** The purge worker's timeout and its queue's visibility timeout: a message older than both has failed once at least. */
  purgeWorkerTimeout: Duration;
  purgeVisibilityTimeout: Duration;
  /** Daily-job ticks that could not run (infra/constructs/schedule-tick.ts). */
  jobDeadLetterQueue: IQueue;
  /** Days between soft-delete and erasure (RETENTION_DAYS). */
  retentionDays: number;
}

type AddAlarm = (id: string, metric: IMetric, spec: AlarmSpec) => unknown;

const FIVE_MINUTES = Duration.minutes(5);

/** Alarms on purges and erasure that would otherwise fail silently, and on daily jobs that could not run. */
export function addBackgroundWorkAlarms(work: BackgroundWork, alarm: AddAlarm): void {
  // A healthy purge message is taken within seconds; one older than a full run plus the
  // visibility timeout has been tried and failed (or the workers are stuck).
  const purgeAgeLimit = work.purgeWorkerTimeout.toSeconds() + work.purgeVisibilityTimeout.toSeconds();
  alarm('PurgeQueueAge', work.purgeQueue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: 'Maximum' }), {
    threshold: purgeAgeLimit,
    evaluationPeriods: 2,
    meaning: `A hard-delete continuation has waited over ${purgeAgeLimit / 60} minutes (one worker run plus a redelivery): purges are failing or stuck, the accounts stay "purging".`,
    runbook: 'purge-queue-age',
  });
  alarm(
    'PurgeDeadLetters',
    work.purgeDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
    {
      threshold: 1,
      meaning: 'A hard delete failed every retry and sits in the purge dead-letter queue: that account is neither erased nor listed.',
      runbook: 'purge-dead-letters',
    },
  );
  alarm('PurgeStepsFailed', businessMetric(METRIC.purgeStepsFailed, Duration.hours(1)), {
    threshold: 3,
    meaning: 'Three or more purge steps failed within an hour (SQS redelivers each; the fifth failure is a dead letter).',
    runbook: 'purge-steps-failed',
  });
  const backlogLimit = work.retentionDays + 2;
  alarm('ErasureBacklog', businessMetric(METRIC.erasureBacklogDays, Duration.days(1)).with({ statistic: 'Maximum' }), {
    threshold: backlogLimit,
    meaning: `An account soft-deleted ${backlogLimit} or more days ago still waits for erasure (retention ${work.retentionDays} days + 2): the daily erasure is not erasing.`,
    runbook: 'erasure-backlog',
  });
  alarm(
    'JobDeadLetters',
    work.jobDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
    {
      threshold: 1,
      meaning: 'A daily job (reminders or erasure) could not be run or failed all its retries: its tick sits in the job dead-letter queue.',
      runbook: 'scheduled-job-dead-letters',
    },
  );
}

/** A job its schedule invokes: the reminders every hour, the erasure and the reconciliation every day. */
export interface ScheduledJob {
  /** As the runbook names it, e.g. `reminders`. */
  name: string;
  fn: IFunction;
  /** Time between two scheduled runs. */
  every: Duration;
}

/** The longest window a heartbeat counts in one datapoint: a daily job is watched in quarter days. */
const HEARTBEAT_MAX_PERIOD = Duration.hours(6);

/**
 * How a heartbeat watches a job run every `every`: periods of at most six hours, and as many
 * periods in a row without an invocation as cover one interval and one period more. However
 * CloudWatch aligns its periods with the schedule, a healthy job invokes in one of them (an
 * hourly job: 2 hours without a run; a daily one: 30 hours, so a day's run missed by 6 hours).
 */
export function heartbeatWindow(every: Duration): { period: Duration; periods: number } {
  const seconds = Math.min(every.toSeconds(), HEARTBEAT_MAX_PERIOD.toSeconds());
  return { period: Duration.seconds(seconds), periods: Math.ceil(every.toSeconds() / seconds) + 1 };
}

/**
 * Heartbeats of the scheduled jobs: an alarm when a job was not invoked at all over its window
 * (a schedule rule left disabled after a restore, deleted, or an EventBridge target that lost
 * its permission). No data is breaching here: a job that never runs publishes no Invocations.
 * A failing run still counts as invoked: its failures have their own alarms.
 */
export function addScheduleHeartbeatAlarms(jobs: ScheduledJob[], alarm: AddAlarm): void {
  for (const job of jobs) {
    const { period, periods } = heartbeatWindow(job.every);
    const label = job.name.charAt(0).toUpperCase() + job.name.slice(1);
    const hours = (period.toSeconds() * periods) / 3600;
    alarm(`${label}Heartbeat`, job.fn.metricInvocations({ period, statistic: 'Sum' }), {
      threshold: 1,
      comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
      evaluationPeriods: periods,
      datapointsToAlarm: periods,
      treatMissingData: TreatMissingData.BREACHING,
      meaning: `The ${job.name} job was not invoked for ${hours} hours although its schedule runs it every ${job.every.toHumanString().replace(/^1 /, '')}: the schedule stopped firing (rule disabled or deleted, target lost).`,
      runbook: 'schedule-stopped',
    });
  }
}
