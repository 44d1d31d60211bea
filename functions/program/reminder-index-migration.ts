import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetItems } from '../lib/batch-items';
import { forEachBounded } from '../lib/bounded';
import { db, tableName } from '../lib/db';
import { queryPages } from '../lib/query-pages';
import { indexAttributes, indexQuery, keys, legacyRemindersDuePartition } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { REMINDER_SHARDS, reminderPartition, scheduleOf } from './reminder-index';
import type { EnrollmentRecord } from './store';
import { currentDate } from '../lib/clock';

export interface ReminderIndexMigration {
  /** entries moved to their send-hour partition */
  moved: number;
  /** entries taken out (reminders off meanwhile) */
  removed: number;
}

/** Every reminder index partition from before they carried the UTC send hour (legacyRemindersDuePartition). */
export function legacyReminderPartitions(): string[] {
  const shards = Array.from({ length: REMINDER_SHARDS }, (_, shard) => shard);
  return [
    ...shards.map((shard) => legacyRemindersDuePartition(shard)),
    ...Array.from({ length: 7 }, (_, weekday) => shards.map((shard) => legacyRemindersDuePartition(shard, weekday))).flat(),
  ];
}

/**
 * `npm run migrate` step `reminder-send-hours`: moves every entry of a legacy partition to the
 * partition of the learner's send hour (their zone, UTC when they never set one), reading the
 * learners' accounts a page at a time. Each move is conditional on the entry still being where
 * it was read (a settings change or a progress write meanwhile has put it right already), so a
 * rerun, or a run beside live traffic, changes nothing twice; a rerun finds the partitions empty.
 */
export async function migrateReminderIndex(now = currentDate(), onPage: (sofar: ReminderIndexMigration) => void = () => {}) {
  const totals: ReminderIndexMigration = { moved: 0, removed: 0 };
  const [pkName, skName] = indexAttributes('remindersDue');
  for (const legacy of legacyReminderPartitions()) {
    for await (const page of queryPages({ ...indexQuery('remindersDue', legacy), Limit: 100 })) {
      const enrollments = (page.Items ?? []) as EnrollmentRecord[];
      if (!enrollments.length) continue;
      const users = (await batchGetItems(
        enrollments.map((enrollment) => keys.user(enrollment.user_id)),
        { projection: ['id', 'reminder_frequency', 'time_zone'] },
      )) as Array<Pick<UserRecord, 'id' | 'reminder_frequency' | 'time_zone'>>;
      const byId = new Map(users.map((user) => [user.id, user]));
      await forEachBounded(enrollments, 16, async (enrollment) => {
        const user = byId.get(enrollment.user_id);
        const partition = user ? reminderPartition(user.id, scheduleOf(user, enrollment.enrolled_at), now) : null;
        try {
          await db().send(
            new UpdateCommand({
              TableName: tableName(),
              Key: keys.enrollment(enrollment.user_id, enrollment.program_id),
              UpdateExpression: partition ? 'SET #ipk = :pk, #isk = :sk' : 'REMOVE #ipk, #isk',
              ConditionExpression: '#ipk = :legacy',
              ExpressionAttributeNames: { '#ipk': pkName, '#isk': skName },
              ExpressionAttributeValues: { ':legacy': legacy, ...(partition ? { ':pk': partition, ':sk': enrollment.user_id } : {}) },
            }),
          );
          if (partition) totals.moved += 1;
          else totals.removed += 1;
        } catch (error) {
          if (!(error instanceof ConditionalCheckFailedException)) throw error;
        }
      });
      onPage({ ...totals });
    }
  }
  return totals;
}
