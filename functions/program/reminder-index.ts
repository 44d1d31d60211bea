import { createHash } from 'node:crypto';
import type { ReminderFrequency } from '../../shared/program-types';

/**
 * The sparse reminder index (gsi3) on ENROLLMENT items. An enrollment carries gsi3 keys only
 * while the learner should get reminders (enrolled, modules left), so the daily job reads exactly
 * its recipients by Query, never a Scan:
 *   gsi3pk REMIND#daily#<shard>             daily learners, every day
 *   gsi3pk REMIND#weekly#<weekday>#<shard>  weekly learners, on the UTC weekday they enrolled
 *                                           (spreads weekly mail over the week; each day's run
 *                                           reads only that weekday's partitions)
 *   gsi3sk <user id>
 * Shards (by a hash of the user id) keep any one partition from growing hot.
 * The user's status, verification and frequency are re-checked from the user item at send time:
 * admin actions change them without touching the enrollment.
 */
export const REMINDER_SHARDS = 10;

export function reminderShard(userId: string): number {
  return createHash('sha256').update(userId).digest().readUInt16BE(0) % REMINDER_SHARDS;
}

/** UTC weekday (0 = Sunday) of an ISO timestamp: a weekly learner's reminder day. */
export const weekdayOf = (iso: string) => new Date(iso).getUTCDay();

/** The index keys for this frequency; null for `off` (the learner is in no partition: no reminders). */
export function reminderIndexKeys(userId: string, frequency: ReminderFrequency, enrolledAt: string): { gsi3pk: string; gsi3sk: string } | null {
  if (frequency === 'off') return null;
  const shard = reminderShard(userId);
  const gsi3pk = frequency === 'weekly' ? `REMIND#weekly#${weekdayOf(enrolledAt)}#${shard}` : `REMIND#daily#${shard}`;
  return { gsi3pk, gsi3sk: userId };
}

/** Every index partition a run on `now`'s UTC day reads: all daily shards and today's weekly shards. */
export function reminderPartitions(now: Date): string[] {
  const shards = Array.from({ length: REMINDER_SHARDS }, (_, shard) => shard);
  return [
    ...shards.map((shard) => `REMIND#daily#${shard}`),
    ...shards.map((shard) => `REMIND#weekly#${now.getUTCDay()}#${shard}`),
  ];
}
