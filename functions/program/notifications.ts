import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { accountAudit, type Caller } from '../lib/caller';
import { auditPut } from '../lib/audit';
import { failedConditions } from '../lib/retry';
import { getUserById } from '../lib/users';
import { DEFAULT_REMINDER_FREQUENCY, REMINDER_FREQUENCIES } from '../../shared/constants';
import type { NotificationPreferences, ReminderFrequency } from '../../shared/program-types';
import { db, tableName } from '../lib/db';
import { badRequest, conflict, notFound } from '../lib/errors';
import { indexAttributes, keys } from '../lib/table';
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
 * Saves the reminder frequency, then points the learner's reminder index entry at the matching
 * partition, or takes it out for `off`. An enrollment that is finished or a staff preview stays
 * out of the index (the condition); if the entry ever lags, the reminder job re-reads the
 * frequency from the user item and repairs it.
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
  await followFrequency(user.id, value);
  return { reminder_frequency: value };
}

/** Moves (or removes) the enrollment's reminder index entry after a frequency change. */
async function followFrequency(userId: string, frequency: ReminderFrequency) {
  const enrollment = await getEnrollment(userId, program().id);
  if (!enrollment || enrollment.staff || enrollment.status === 'completed') return;
  await moveReminderIndex(userId, enrollment.program_id, reminderPartition(userId, frequency, enrollment.enrolled_at));
}

/**
 * Points an active enrollment's reminder index entry at another partition, or takes it out
 * (`null`: reminders off). Conditional: a program finished meanwhile stays out of the index.
 */
export async function moveReminderIndex(userId: string, programId: string, partition: string | null) {
  const [pkName, skName] = indexAttributes('remindersDue');
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.enrollment(userId, programId),
        ...(partition
          ? {
              UpdateExpression: 'SET #ipk = :pk, #isk = :sk',
              ConditionExpression: 'attribute_exists(pk) AND #status = :active AND attribute_not_exists(staff)',
              ExpressionAttributeNames: { '#ipk': pkName, '#isk': skName, '#status': 'status' },
              ExpressionAttributeValues: { ':pk': partition, ':sk': userId, ':active': 'active' },
            }
          : {
              UpdateExpression: 'REMOVE #ipk, #isk',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeNames: { '#ipk': pkName, '#isk': skName },
            }),
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/**
 * One-click unsubscribe (docs/product.md#unsubscribe): the account named by a verified token
 * gets reminders `off` at once, with an audit entry (actor: the account itself, no session).
 * Repeating it changes nothing and writes no second entry (mail providers may POST twice).
 */
export const unsubscribeAccount = (userId: string, caller: Caller) => setFrequencyFromLink(userId, caller, 'off');

/**
 * The unsubscribe page's choices (docs/product.md#unsubscribe): the account named by a verified
 * token gets the frequency `to` (off, "weekly instead", or back on), audited as the account's own
 * change. Setting the frequency it already has writes nothing.
 */
export async function setFrequencyFromLink(
  userId: string,
  caller: Caller,
  to: ReminderFrequency,
): Promise<NotificationPreferences & { changed: boolean }> {
  const user = await getUserById(userId);
  if (!user || user.status === 'purging') throw notFound();
  const before = user.reminder_frequency ?? DEFAULT_REMINDER_FREQUENCY;
  if (before === to) {
    await followFrequency(user.id, to); // heals a lagging index entry; no write otherwise
    return { reminder_frequency: to, changed: false };
  }
  const at = new Date().toISOString();
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: keys.user(user.id),
              UpdateExpression: 'SET reminder_frequency = :to, updated_at = :at ADD version :one',
              // only the frequency we read: a concurrent change wins and this request retries nothing
              ConditionExpression: 'attribute_exists(pk) AND (reminder_frequency = :before OR attribute_not_exists(reminder_frequency))',
              ExpressionAttributeValues: { ':to': to, ':at': at, ':one': 1, ':before': before },
            },
          },
          auditPut(
            accountAudit(to === 'off' ? 'notifications.unsubscribe' : 'notifications.link_frequency', user, caller, {
              old: { reminder_frequency: before },
              new: { reminder_frequency: to, via: 'unsubscribe_link' },
            }),
          ),
        ],
      }),
    );
  } catch (error) {
    if (failedConditions(error).length) throw conflict('conflict');
    throw error;
  }
  await followFrequency(user.id, to);
  return { reminder_frequency: to, changed: true };
}
