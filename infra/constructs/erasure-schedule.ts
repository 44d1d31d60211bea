import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { acknowledgeScheduleTick } from './schedule-tick';

export interface ErasureScheduleProps {
  handler: IFunction;
}

/**
 * Runs the erasure job once a day (functions/jobs/erasure.ts): accounts soft-deleted longer ago
 * than the retention period are hard-deleted. 03:00 UTC, away from the reminders' 14:00 run.
 * EventBridge retries a failed invocation (twice by default); the job resumes from its checkpoint.
 */
export class ErasureSchedule extends Construct {
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: ErasureScheduleProps) {
    super(scope, id);
    this.rule = new Rule(this, 'Daily', {
      description: 'Daily erasure of accounts past their retention period (03:00 UTC)',
      schedule: Schedule.cron({ minute: '0', hour: '3' }),
      targets: [new LambdaFunction(props.handler)],
    });
    acknowledgeScheduleTick(this.rule, props.handler);
  }
}
