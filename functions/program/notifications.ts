import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_REMINDER_FREQUENCY, REMINDER_FREQUENCIES } from '../../shared/constants';
import type { NotificationPreferences, ReminderFrequency } from '../../shared/program-types';
import { db, tableName } from '../lib/db';
import { badRequest } from '../lib/errors';
import { indexAttributes, indexPartitionOf, keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { program } from './content';
import { reminderPartition } from './reminder-index';
import { getEnrollment } from './store';

export function getNotificationPreferences(user: UserRecord): NotificationPreferences {
  return { reminder_frequency: user.reminder_frequency ?? DEFAULT_REMINDER_FREQUENCY };
}

export const isReminderFrequency = (value: unknown): value is ReminderFrequency =>
  typeof value === 'string' && (REMINDER_FREQUENCIES as readonly string[]).includes(value);

/**
 * Saves the reminder frequency, then moves the learner's reminder index entry to the matching
 * partition. The move is conditional on the entry existing (a finished program has none); if it
 * ever lags, the reminder job re-reads the frequency from the user item and repairs it.
 */
export async function setNotificationPreferences(user: UserRecord, value: unknown): Promise<NotificationPreferences> {
  if (!isReminderFrequency(value)) throw badRequest('invalid_reminder_frequency');
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.user(user.id),
      UpdateExpression: 'SET reminder_frequency = :frequency, updated_at = :at ADD version :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':frequency': value, ':at': new Date().toISOString(), ':one': 1 },
    }),
  );
  const enrollment = await getEnrollment(user.id, program().id);
  if (enrollment && indexPartitionOf('remindersDue', enrollment)) await moveReminderIndex(user.id, enrollment.program_id, reminderPartition(user.id, value, enrollment.enrolled_at));
  return { reminder_frequency: value };
}

/** Points an enrollment's reminder index entry at another partition (only while it has one). */
export async function moveReminderIndex(userId: string, programId: string, partition: string) {
  const [pkName, skName] = indexAttributes('remindersDue');
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.enrollment(userId, programId),
        UpdateExpression: 'SET #ipk = :pk, #isk = :sk',
        ConditionExpression: 'attribute_exists(#ipk)',
        ExpressionAttributeNames: { '#ipk': pkName, '#isk': skName },
        ExpressionAttributeValues: { ':pk': partition, ':sk': userId },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}
