import { createHash } from 'node:crypto';
import type { ReminderFrequency } from '../../shared/program-types';
import { indexKeys, indexPartition } from '../lib/table';
import { localTime } from '../lib/time-zone';
import { currentDate } from '../lib/clock';

/**
 * The sparse reminder index (`INDEX.remindersDue` in functions/lib/table.ts) on ENROLLMENT items.
 * An enrollment carries its keys only while the learner should get reminders (enrolled, modules
 * left), so each hourly run reads exactly its recipients by Query, never a Scan:
 *   partition REMIND#daily#<utc hour>#<shard>             daily learners whose local morning is
 *                                                         that UTC hour
 *   partition REMIND#weekly#<utc weekday>#<utc hour>#<shard>  weekly learners: the UTC weekday
 *                                                         and hour of their local morning on the
 *                                                         local weekday they enrolled
 *   sort key  <user id>
 * The local morning is REMINDER_LOCAL_HOUR (09:00) in the learner's time zone; its UTC hour is
 * the first whole hour at or after it (a zone half an hour off UTC gets its mail at 09:30).
 * Shards (by a hash of the user id) keep any one partition from growing hot. The UTC hour of a
 * zone moves with daylight saving time: the workers move an entry they find in the wrong hour
 * (remind-one.ts), and a learner whose morning has already passed is mailed at once.
 * The user's status, verification and frequency are re-checked from the user item at send time:
 * admin actions change them without touching the enrollment.
 */
export const REMINDER_SHARDS = 10;
/** Reminders go out at this local hour (09:00 in the learner's time zone). */
export const REMINDER_LOCAL_HOUR = 9;
const MINUTES_A_DAY = 24 * 60;
const MINUTES_A_WEEK = 7 * MINUTES_A_DAY;

export function reminderShard(userId: string): number {
  return createHash('sha256').update(userId).digest().readUInt16BE(0) % REMINDER_SHARDS;
}

/** Local weekday (0 = Sunday) of an ISO timestamp in the learner's zone: a weekly learner's reminder day. */
export const weekdayOf = (iso: string, zone: string | undefined) => localTime(new Date(iso), zone).weekday;

/**
 * The UTC weekday and hour of the run that sends the learner's local morning of `localWeekday`,
 * with the zone's offset at `now`.
 */
export function sendSlot(zone: string | undefined, localWeekday: number, now: Date): { weekday: number; hour: number } {
  const { offset } = localTime(now, zone);
  const utc = (((localWeekday * MINUTES_A_DAY + REMINDER_LOCAL_HOUR * 60 - offset) % MINUTES_A_WEEK) + MINUTES_A_WEEK) % MINUTES_A_WEEK;
  const slot = Math.ceil(utc / 60) % (7 * 24); // the first whole UTC hour at or after the local morning
  return { weekday: Math.floor(slot / 24), hour: slot % 24 };
}

export interface ReminderSchedule {
  frequency: ReminderFrequency;
  timeZone: string | undefined;
  enrolledAt: string;
}

/** A learner's reminder schedule from the account (frequency, zone) and the enrollment time. */
export const scheduleOf = (user: { reminder_frequency?: ReminderFrequency; time_zone?: string }, enrolledAt: string): ReminderSchedule => ({
  frequency: user.reminder_frequency ?? 'daily',
  timeZone: user.time_zone,
  enrolledAt,
});

/** The reminder index partition of a learner at `now`; null for `off` (no partition: no reminders). */
export function reminderPartition(userId: string, schedule: ReminderSchedule, now = currentDate()): string | null {
  if (schedule.frequency === 'off') return null;
  const shard = reminderShard(userId);
  if (schedule.frequency === 'daily') return indexPartition.remindersDue(shard, sendSlot(schedule.timeZone, 0, now).hour);
  const { weekday, hour } = sendSlot(schedule.timeZone, weekdayOf(schedule.enrolledAt, schedule.timeZone), now);
  return indexPartition.remindersDue(shard, hour, weekday);
}

/** The index attributes that put an enrollment into the reminder index; none for `off`. */
export function reminderIndexKeys(userId: string, schedule: ReminderSchedule, now = currentDate()) {
  const partition = reminderPartition(userId, schedule, now);
  return partition ? indexKeys.remindersDue(partition, userId) : {};
}

/**
 * Every index partition a run reads: the daily and the weekly shards (of `now`'s UTC weekday) of
 * the UTC hour `hour`, or of every hour of the day (`npm run reminders`: everyone due today).
 */
export function reminderPartitions(now: Date, hour?: number): string[] {
  const hours = hour === undefined ? Array.from({ length: 24 }, (_, h) => h) : [hour];
  const shards = Array.from({ length: REMINDER_SHARDS }, (_, shard) => shard);
  return hours.flatMap((h) => [
    ...shards.map((shard) => indexPartition.remindersDue(shard, h)),
    ...shards.map((shard) => indexPartition.remindersDue(shard, h, now.getUTCDay())),
  ]);
}

/**
 * Whether a learner read in a run is due: their partition at `now` is one the run reads, or (an
 * entry left in another hour, daylight saving time moved their morning) their local morning of a
 * reminder day has already passed today. The day marker keeps this to one reminder a local day.
 */
export function isDue(partition: string, runPartitions: ReadonlySet<string>, schedule: ReminderSchedule, now: Date): boolean {
  if (runPartitions.has(partition)) return true;
  const local = localTime(now, schedule.timeZone);
  if (local.minutes < REMINDER_LOCAL_HOUR * 60) return false;
  return schedule.frequency === 'daily' || weekdayOf(schedule.enrolledAt, schedule.timeZone) === local.weekday;
}
