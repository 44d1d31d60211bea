import { createHash } from 'node:crypto';
import type { ReminderFrequency } from '../../shared/program-types';
import { indexKeys, indexPartition } from '../lib/table';

/**
 * The sparse reminder index (`INDEX.remindersDue` in functions/lib/table.ts) on ENROLLMENT items.
 * An enrollment carries its keys only while the learner should get reminders (enrolled, modules
 * left), so the daily job reads exactly its recipients by Query, never a Scan:
 *   partition REMIND#daily#<shard>             daily learners, every day
 *   partition REMIND#weekly#<weekday>#<shard>  weekly learners, on the UTC weekday they enrolled
 *                                              (spreads weekly mail over the week; each day's run
 *                                              reads only that weekday's partitions)
 *   sort key  <user id>
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

/** The reminder index partition of a learner with this frequency and enrollment time; null for `off` (no partition: no reminders). */
export function reminderPartition(userId: string, frequency: ReminderFrequency, enrolledAt: string): string | null {
  if (frequency === 'off') return null;
  const shard = reminderShard(userId);
  return frequency === 'weekly' ? indexPartition.remindersDue(shard, weekdayOf(enrolledAt)) : indexPartition.remindersDue(shard);
}

/** The index attributes that put an enrollment into the reminder index; none for `off`. */
export function reminderIndexKeys(userId: string, frequency: ReminderFrequency, enrolledAt: string) {
  const partition = reminderPartition(userId, frequency, enrolledAt);
  return partition ? indexKeys.remindersDue(partition, userId) : {};
}

/** Every index partition a run on `now`'s UTC day reads: all daily shards and today's weekly shards. */
export function reminderPartitions(now: Date): string[] {
  const shards = Array.from({ length: REMINDER_SHARDS }, (_, shard) => shard);
  return [
    ...shards.map((shard) => indexPartition.remindersDue(shard)),
    ...shards.map((shard) => indexPartition.remindersDue(shard, now.getUTCDay())),
  ];
}
