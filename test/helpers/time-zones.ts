import { REMINDER_LOCAL_HOUR } from '../../functions/program/reminder-index';

/**
 * A whole-hour zone whose reminder morning (09:00 local) is the UTC hour `utcHour`: what a test
 * of the hourly run needs to make a learner due in the hour it runs in. Etc/GMT names count
 * their sign the other way round (Etc/GMT-9 is UTC+9).
 */
export function zoneWhoseMorningIs(utcHour: number): string {
  const offset = ((((REMINDER_LOCAL_HOUR - utcHour) % 24) + 24 + 12) % 24) - 12; // -12 … 11
  if (offset === 0) return 'UTC';
  return offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}
