import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { Construct } from 'constructs';
import type { ScheduledJobProps } from './schedule-tick';

export type RemindersScheduleProps = ScheduledJobProps;

/**
 * Runs the reminders job every hour, on the hour: each run reads the learners whose local
 * morning (09:00 in their time zone) falls in that UTC hour, daily ones every day, weekly ones
 * on their local weekday (functions/program/reminder-index.ts).
 */
export class RemindersSchedule extends Construct {
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: RemindersScheduleProps) {
    super(scope, id);
    this.rule = new Rule(this, 'Hourly', {
      description: 'Reminder emails, hourly: the learners whose local morning is this UTC hour',
      schedule: Schedule.cron({ minute: '0' }),
      targets: [props.deadLetters.target(props.handler)],
    });
    props.deadLetters.keepFailedRuns(props.handler);
  }
}
