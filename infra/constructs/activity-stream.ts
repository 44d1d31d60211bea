import { Duration, Validations } from 'aws-cdk-lib';
import type { IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule, type Function as LambdaFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { AlarmSpec } from './monitoring';
import { DEAD_LETTER_RETENTION_DAYS } from './work-queue';
import { PK, SK, STREAMED_REFERENCES } from '../../functions/lib/table';

export interface ActivityStreamProps {
  /** The table, with its stream (NEW_AND_OLD_IMAGES: the aggregator compares the old and new last-active day). */
  table: ITable;
  /** The aggregator (functions/jobs/activity-stream.ts). */
  aggregator: LambdaFunction;
}

/**
 * How far behind the stream read may fall (a healthy one is read within seconds). The stream
 * keeps a record 24 hours: past that the record is gone and only the rebuild
 * (docs/runbook.md#rebuilding-derived-data) writes what it would have. An hour behind is late work
 * for working hours (a ticket); six hours behind pages, leaving the on-call engineer 18 hours to
 * get the aggregator reading again before any record expires.
 */
export const ITERATOR_AGE_LIMITS_SECONDS = { ticket: 3600, page: 6 * 3600 } as const;
/** How long the table's stream keeps a record (DynamoDB Streams: fixed). */
export const STREAM_RETENTION_HOURS = 24;

/**
 * The table's stream → the activity aggregator (docs/scale-writes.md "Activity off the request
 * path"). Only account profiles that carry a last-active day, new sessions of a sign-in (their
 * `auth.login` audit entry) and new audit entries written inside a transaction (their references,
 * functions/lib/audit-stream-refs.ts) invoke it (the filters); a batch
 * holds up to 100 records or 5 s of them. A failing batch is split in two and retried (every
 * aggregator write is idempotent), and what still fails after the retries, or is a day old, goes
 * to the dead-letter queue as a pointer to the stream records (docs/runbook.md#activity-totals-trailing).
 */
export class ActivityStream extends Construct {
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: ActivityStreamProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeadLetters', {
      retentionPeriod: Duration.days(DEAD_LETTER_RETENTION_DAYS),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    Validations.of(this.deadLetterQueue).acknowledge(
      {
        id: 'AwsSolutions-SQS3',
        reason: "This queue is the stream's on-failure destination: it holds pointers to failed batches, read by the operator.",
      },
      { id: 'Serverless-SQSRedrivePolicy', reason: "The stream's on-failure destination: nothing consumes it but the operator." },
    );
    // (FilterRule builds untyped patterns)
    const modifyRecords: unknown = FilterRule.isEqual('MODIFY');
    const profileItems: unknown = FilterRule.isEqual('PROFILE');
    const withLastActiveDay: unknown = FilterRule.exists();
    const insertRecords: unknown = FilterRule.isEqual('INSERT');
    const sessionItems: unknown = FilterRule.beginsWith(SK.session);
    const withSignInNote: unknown = FilterRule.exists();
    // 'AUDIT#' is not a prefix of the references' 'AUDITREF#'
    const auditEntries: unknown = FilterRule.beginsWith(PK.audit);
    const withStreamedReferences: unknown = FilterRule.isEqual(STREAMED_REFERENCES.value);
    props.aggregator.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(5),
        bisectBatchOnError: true,
        retryAttempts: 5,
        maxRecordAge: Duration.days(1),
        onFailure: new SqsDlq(this.deadLetterQueue),
        filters: [
          FilterCriteria.filter({
            eventName: modifyRecords,
            dynamodb: { Keys: { sk: { S: profileItems } }, NewImage: { last_active_day: { S: withLastActiveDay } } },
          }),
          // a sign-in's new session: its `auth.login` audit entry (functions/lib/sign-in-audit.ts)
          FilterCriteria.filter({
            eventName: insertRecords,
            dynamodb: { Keys: { sk: { S: sessionItems } }, NewImage: { sign_in_email: { S: withSignInNote } } },
          }),
          // an audit entry written inside a transaction: its references (functions/lib/audit-stream-refs.ts)
          FilterCriteria.filter({
            eventName: insertRecords,
            dynamodb: {
              Keys: { pk: { S: auditEntries } },
              NewImage: { [STREAMED_REFERENCES.attribute]: { S: withStreamedReferences } },
            },
          }),
        ],
      }),
    );
  }

  /** The alarms: the stream read falling behind (totals trail), and batches given up on. */
  addAlarms(alarm: (id: string, metric: IMetric, spec: AlarmSpec) => unknown, aggregator: LambdaFunction): void {
    const iteratorAge = aggregator.metric('IteratorAge', { period: Duration.minutes(5), statistic: 'Maximum' });
    const { ticket, page } = ITERATOR_AGE_LIMITS_SECONDS;
    alarm('ActivityStreamIteratorAge', iteratorAge, {
      threshold: ticket * 1000,
      evaluationPeriods: 2,
      meaning: `The activity aggregator reads the table's stream more than ${ticket / 3600} hour behind: the admin's active-learner totals, and the audit filters' view of entries written with the change they record, trail by as much.`,
      runbook: 'activity-totals-trailing',
    });
    alarm('ActivityStreamIteratorAgePage', iteratorAge, {
      threshold: page * 1000,
      evaluationPeriods: 2,
      meaning: `The activity aggregator reads the table's stream more than ${page / 3600} hours behind: records it has not read expire ${STREAM_RETENTION_HOURS} hours after their write (sign-ins' audit entries, audit references, activity counts), and only the rebuild restores them.`,
      runbook: 'stream-records-expiring',
    });
    alarm(
      'ActivityStreamDeadLetters',
      this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      {
        threshold: 1,
        meaning:
          "An activity batch failed every retry: those learners' day is not counted in the admin's active totals, and its audit entries may lack the references the audit filters read.",
        runbook: 'activity-totals-trailing',
      },
    );
  }
}
