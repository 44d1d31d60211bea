import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { accepts, statusCondition } from '../lib/account-states';
import { accountAudit, type Caller } from '../lib/caller';
import { auditPuts } from '../lib/audit';
import { failedConditions } from '../lib/retry';
import { getUserById } from '../lib/users';
import { DEFAULT_REMINDER_FREQUENCY, REMINDER_FREQUENCIES } from '../../shared/constants';
import type { NotificationPreferences, ReminderFrequency } from '../../shared/program-types';
import { db, tableName } from '../lib/db';
import { badRequest, conflict, notFound } from '../lib/errors';
import { indexAttributes, keys } from '../lib/table';
import { canonicalTimeZone, DEFAULT_TIME_ZONE } from '../lib/time-zone';
import type { UserRecord } from '../lib/user-record';
import { program } from './content';
import { reminderPartition } from './reminder-index';
import { getEnrollment } from './store';
import { currentDate, nowIso } from '../lib/clock';

export function getNotificationPreferences(user: UserRecord): NotificationPreferences {
  return {
    reminder_frequency: user.reminder_frequency ?? DEFAULT_REMINDER_FREQUENCY,
    time_zone: user.time_zone ?? DEFAULT_TIME_ZONE,
    reminders_paused: Boolean(user.reminders_paused_at),
  };
}

export const isReminderFrequency = (value: unknown): value is ReminderFrequency =>
  typeof value === 'string' && (REMINDER_FREQUENCIES as readonly string[]).includes(value);

/**
 * Saves the reminder frequency and/or time zone (each optional, at least one; both checked before
 * anything is written), then points the learner's reminder index entry at the matching partition
 * (the UTC hour of their local morning), or takes it out for `off`. An enrollment that is
 * finished or a staff preview stays out of the index (the condition); if the entry ever lags, the
 * reminder job re-reads the account and repairs it.
 */
export async function setNotificationPreferences(
  user: UserRecord,
  body: { reminder_frequency?: unknown; time_zone?: unknown; resume?: unknown },
): Promise<NotificationPreferences> {
  const { reminder_frequency: frequency, time_zone: zone, resume } = body;
  if (resume !== undefined && resume !== true) throw badRequest('invalid_resume');
  if (resume && frequency === undefined && zone === undefined) return getNotificationPreferences((await resumeReminders(user.id)) ?? user);
  if ((frequency === undefined && zone === undefined) || (frequency !== undefined && !isReminderFrequency(frequency)))
    throw badRequest('invalid_reminder_frequency');
  const timeZone = zone === undefined ? undefined : canonicalTimeZone(zone);
  if (zone !== undefined && !timeZone) throw badRequest('invalid_time_zone');
  const sets = [...(frequency !== undefined ? ['reminder_frequency = :frequency'] : []), ...(timeZone ? ['time_zone = :zone'] : [])];
  const saved = (
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(user.id),
        UpdateExpression: `SET ${sets.join(', ')}, updated_at = :at ADD version :one`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ...(frequency !== undefined ? { ':frequency': frequency } : {}),
          ...(timeZone ? { ':zone': timeZone } : {}),
          ':at': nowIso(),
          ':one': 1,
        },
        ReturnValues: 'ALL_NEW',
      }),
    )
  ).Attributes as UserRecord;
  const preferences = getNotificationPreferences(saved);
  // a paused learner's index entry stays out until they resume
  if (resume) return getNotificationPreferences((await resumeReminders(user.id)) ?? saved);
  if (!preferences.reminders_paused) await followSchedule(user.id, preferences.reminder_frequency, preferences.time_zone);
  return preferences;
}

/**
 * Resumes reminders paused after 4 weeks without activity (functions/program/reminder-pause.ts):
 * the pause state leaves the account and the enrollment goes back into the reminder index (or
 * stays out for `off`). Called on any activity of a paused account (the activity aggregator),
 * from the paused email's link and from Settings. Idempotent, so a retry after a failure between
 * the two writes finishes the job. The inactivity clock starts again at `now`
 * (`reminders_resumed_at`). Returns the account as it is now, or undefined when it is gone.
 */
export async function resumeReminders(userId: string, now = currentDate()): Promise<UserRecord | undefined> {
  let resumed: UserRecord;
  try {
    resumed = (
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.user(userId),
          UpdateExpression: 'SET reminders_resumed_at = :now REMOVE reminders_paused_at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':now': now.toISOString() },
          ReturnValues: 'ALL_NEW',
        }),
      )
    ).Attributes as UserRecord;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
  await followSchedule(userId, resumed.reminder_frequency ?? DEFAULT_REMINDER_FREQUENCY, resumed.time_zone);
  return resumed;
}

/** Moves (or removes) the enrollment's reminder index entry after a frequency or time-zone change. */
async function followSchedule(userId: string, frequency: ReminderFrequency, timeZone: string | undefined) {
  const enrollment = await getEnrollment(userId, program().id);
  if (!enrollment || enrollment.staff || enrollment.status === 'completed') return;
  await moveReminderIndex(
    userId,
    enrollment.program_id,
    reminderPartition(userId, { frequency, timeZone, enrolledAt: enrollment.enrolled_at }),
  );
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
  if (!user || !accepts('emailLink', user.status)) throw notFound();
  const before = user.reminder_frequency ?? DEFAULT_REMINDER_FREQUENCY;
  // choosing reminders from the link (the paused email links to it) resumes paused ones
  if (to !== 'off' && user.reminders_paused_at) await resumeReminders(user.id);
  const paused = to === 'off' && Boolean(user.reminders_paused_at);
  if (before === to) {
    await followSchedule(user.id, to, user.time_zone); // heals a lagging index entry; no write otherwise
    return { reminder_frequency: to, time_zone: user.time_zone ?? DEFAULT_TIME_ZONE, reminders_paused: paused, changed: false };
  }
  const at = nowIso();
  const accepted = statusCondition('emailLink');
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: keys.user(user.id),
              UpdateExpression: 'SET reminder_frequency = :to, updated_at = :at ADD version :one',
              // only the frequency we read: a concurrent change wins and this request retries nothing;
              // never on an account whose erasure started meanwhile
              ConditionExpression: `attribute_exists(pk) AND (reminder_frequency = :before OR attribute_not_exists(reminder_frequency)) AND ${accepted.expression}`,
              ExpressionAttributeNames: accepted.names,
              ExpressionAttributeValues: { ':to': to, ':at': at, ':one': 1, ':before': before, ...accepted.values },
            },
          },
          ...auditPuts(
            accountAudit(to === 'off' ? 'notifications.unsubscribe' : 'notifications.link_frequency', user, caller, {
              old: { reminder_frequency: before },
              new: { reminder_frequency: to, via: 'unsubscribe_link' },
            }),
          ),
        ],
      }),
    );
  } catch (error) {
    if (!failedConditions(error).length) throw error;
    const now = await getUserById(user.id);
    if (!now || !accepts('emailLink', now.status)) throw notFound();
    throw conflict('conflict');
  }
  await followSchedule(user.id, to, user.time_zone);
  return { reminder_frequency: to, time_zone: user.time_zone ?? DEFAULT_TIME_ZONE, reminders_paused: paused, changed: true };
}
