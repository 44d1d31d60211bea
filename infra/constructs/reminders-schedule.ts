import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { Construct } from 'constructs';
import type { ScheduledJobProps } from './schedule-tick';

export type RemindersScheduleProps = ScheduledJobProps;

/**
 * Runs the reminders job once a day. One daily run serves both frequencies: the job itself
 * decides which learners are due (daily ones every day, weekly ones on their day).
 */
export class RemindersSchedule extends Construct {
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: RemindersScheduleProps) {
    super(scope, id);
    this.rule = new Rule(this, 'Daily', {
      description: 'Daily reminder emails (14:00 UTC)',
      schedule: Schedule.cron({ minute: '0', hour: '14' }),
      targets: [props.deadLetters.target(props.handler)],
    });
    props.deadLetters.keepFailedRuns(props.handler);
  }
}
