import { Duration } from 'aws-cdk-lib';
import type { IMetric } from 'aws-cdk-lib/aws-cloudwatch';
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
