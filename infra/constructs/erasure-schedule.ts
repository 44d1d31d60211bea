import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { Construct } from 'constructs';
import type { ScheduledJobProps } from './schedule-tick';

export type ErasureScheduleProps = ScheduledJobProps;

/**
 * Runs the erasure job once a day (functions/jobs/erasure.ts): accounts soft-deleted longer ago
 * than the retention period are hard-deleted, at 03:00 UTC.
 * EventBridge retries a failed invocation (twice by default); the job resumes from its checkpoint.
 */
export class ErasureSchedule extends Construct {
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: ErasureScheduleProps) {
    super(scope, id);
    this.rule = new Rule(this, 'Daily', {
      description: 'Daily erasure of accounts past their retention period (03:00 UTC)',
      schedule: Schedule.cron({ minute: '0', hour: '3' }),
      targets: [props.deadLetters.target(props.handler)],
    });
    props.deadLetters.keepFailedRuns(props.handler);
  }
}
