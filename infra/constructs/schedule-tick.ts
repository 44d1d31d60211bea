import { Duration, Validations } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction, IFunction } from 'aws-cdk-lib/aws-lambda';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DEAD_LETTER_RETENTION_DAYS } from './work-queue';

/**
 * Where a daily job's tick goes when it cannot run: EventBridge could not invoke the function
 * (its retries over), or Lambda ran it and it failed after its two retries. Either way the tick
 * waits here with the error, the depth alarm fires (docs/runbook.md#scheduled-job-dead-letters),
 * and the operator reruns the job once the cause is fixed (the reminders with the tick's hour,
 * `{"hour": "YYYY-MM-DDTHH"}`, functions/jobs/reminder-run-hour.ts; the daily jobs with `{}`).
 */
export class JobDeadLetters extends Construct {
  readonly queue: Queue;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.queue = new Queue(this, 'Queue', {
      retentionPeriod: Duration.days(DEAD_LETTER_RETENTION_DAYS),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    const itself = 'This queue is itself the dead-letter queue of the daily jobs';
    Validations.of(this.queue).acknowledge(
      { id: 'AwsSolutions-SQS3', reason: `${itself}; a DLQ of a DLQ would only move the same ticks again.` },
      { id: 'Serverless-SQSRedrivePolicy', reason: `${itself}: nothing consumes it but the operator rerunning a job.` },
    );
  }

  /** The schedule's target: a tick EventBridge cannot deliver within its retries lands in the queue. */
  target(handler: IFunction): LambdaFunction {
    return new LambdaFunction(handler, { deadLetterQueue: this.queue, retryAttempts: 2, maxEventAge: Duration.hours(2) });
  }

  /** A run that still fails after Lambda's two asynchronous retries lands in the queue too. */
  keepFailedRuns(handler: IFunction): void {
    (handler.node.defaultChild as CfnFunction).deadLetterConfig = { targetArn: this.queue.queueArn };
    handler.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }));
  }
}

/** What a daily schedule needs: its handler, and where its failed ticks go. */
export interface ScheduledJobProps {
  handler: IFunction;
  deadLetters: JobDeadLetters;
}

/**
 * A daily job's schedule: a rule at `hour`:`minute` UTC invoking the job, its ticks and failed
 * runs kept in the dead letters. EventBridge and Lambda retry a failed run (twice each); the jobs
 * resume from their checkpoints. The erasure (functions/jobs/erasure.ts) runs at 03:00, the
 * reconciliation of the counters (functions/jobs/reconcile.ts) at 04:30, in most learners' quiet
 * hours, so fewer writes race its walk.
 */
export class DailyJobSchedule extends Construct {
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: ScheduledJobProps & { description: string; hour: number; minute: number }) {
    super(scope, id);
    this.rule = new Rule(this, 'Daily', {
      description: props.description,
      schedule: Schedule.cron({ minute: String(props.minute), hour: String(props.hour) }),
      targets: [props.deadLetters.target(props.handler)],
    });
    props.deadLetters.keepFailedRuns(props.handler);
  }
}
