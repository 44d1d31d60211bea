import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db';
import { type Delivery, type EmailMessage, type ListEmailMessage } from '../lib/email';
import { isEmailSuppressed } from '../lib/email-suppression';
import { indexAttributes, indexPartitionOf, keys, ttlIn } from '../lib/table';
import { localTime } from '../lib/time-zone';
import { signUnsubscribeToken } from '../lib/unsubscribe-token';
import type { UserRecord } from '../lib/user-record';
import type { Program } from './content';
import { deriveProgress } from './progress';
import { reminderEmail } from './reminder-email';
import { isInactive, pausedEmail, pauseReminders, unpause } from './reminder-pause';
import { isDue, reminderPartition, scheduleOf } from './reminder-index';
import { listProgress, type EnrollmentRecord } from './store';

/**
 * One learner's reminder (functions/program/reminders.ts runs them per page): the checks against
 * the account, the index repairs, the once-a-day marker and the send on the bulk stream.
 */
export type ReminderUser = Pick<
  UserRecord,
  | 'id'
  | 'email'
  | 'first_name'
  | 'status'
  | 'is_locked'
  | 'verified'
  | 'reminder_frequency'
  | 'time_zone'
  | 'email_suppressed'
  | 'last_active_day'
  | 'reminders_paused_at'
  | 'reminders_resumed_at'
>;

/** `deferred`: the worker may not claim another learner now; the learner is left for the continuation. */
export type Outcome = 'sent' | 'skipped' | 'deferred';

export interface RemindContext {
  /** The published program (functions/program/published-program.ts). */
  content: Program;
  now: Date;
  /** The index partitions the run reads (reminder-index.ts reminderPartitions): whose turn it is. */
  runPartitions: ReadonlySet<string>;
  baseUrl: string;
  /** Waits for this worker's next send slot. */
  pace: () => Promise<void>;
  /** Whether the worker may claim one more learner now (time left, bulk share left). */
  mayClaim: () => boolean;
  send: (message: ListEmailMessage) => Promise<Delivery>;
  onSent?: (message: EmailMessage) => void;
}

const MARKER_TTL_SECONDS = 40 * 24 * 3600;

export async function remindOne(
  enrollment: EnrollmentRecord,
  user: ReminderUser | undefined,
  partition: string,
  context: RemindContext,
): Promise<Outcome> {
  if (!user) return 'skipped';
  // Admin actions (lock, delete, purge) and verification change the user item only: check it now.
  if (user.status !== 'active' || user.is_locked || !user.verified) return 'skipped';
  // SES reported the address as hard-bounced or complaining: optional mail stops.
  if (isEmailSuppressed(user)) return 'skipped';
  // paused (reminder-pause.ts) with the index entry left behind: it leaves now
  if (user.reminders_paused_at) {
    await removeFromIndex(enrollment);
    return 'skipped';
  }
  const { content } = context;
  // The index item carries the open module and the percent (kept by every progress write).
  let open = enrollment.open_module_id ? content.modules.find((module) => module.module_id === enrollment.open_module_id) : undefined;
  let percent = enrollment.percent_complete ?? 0;
  if (!open && enrollment.status !== 'completed') {
    // an enrollment written before open_module_id existed: derive it (rare, extra reads)
    const derived = deriveProgress(content, await listProgress(user.id, content.id));
    open = derived.open ?? undefined;
    percent = derived.percent;
  }
  if (!open || enrollment.status === 'completed') {
    await removeFromIndex(enrollment);
    return 'skipped';
  }
  const { now } = context;
  const schedule = scheduleOf(user, enrollment.enrolled_at);
  const expected = reminderPartition(user.id, schedule, now);
  if (!expected) {
    // reminders turned off (Settings or the unsubscribe link) without the index following
    await removeFromIndex(enrollment);
    return 'skipped';
  }
  // frequency or zone changed without the index following, or daylight saving time moved the morning
  if (expected !== partition) await repairIndex(enrollment, expected);
  if (!isDue(expected, context.runPartitions, schedule, now)) return 'skipped';
  const frequency = schedule.frequency;
  const linkUrl = `${context.baseUrl}/api/notifications/unsubscribe?token=${encodeURIComponent(await signUnsubscribeToken(user.id))}`;
  // once a day of the learner's own calendar
  const day = localTime(now, schedule.timeZone).day;
  if (isInactive(user, now)) {
    const paused = pausedEmail({
      to: user.email,
      firstName: user.first_name,
      programTitle: content.title,
      baseUrl: context.baseUrl,
      linkUrl,
    });
    return sendOnce(user, day, paused, context, {
      // the pause state is the claim that makes this email the only one
      claim: () => pauseReminders(user.id, now),
      release: () => unpause(user.id, now),
      sent: () => removeFromIndex(enrollment, expected),
    });
  }
  const message = reminderEmail({
    to: user.email,
    firstName: user.first_name,
    module: open,
    percent,
    frequency,
    programTitle: content.title,
    baseUrl: context.baseUrl,
    unsubscribeUrl: linkUrl,
  });
  return sendOnce(user, day, message, context);
}

interface SendSteps {
  /** A second claim after the day marker; false: someone else has it, nothing is sent. */
  claim: () => Promise<boolean>;
  /** Undoes `claim` when the send fails. */
  release: () => Promise<void>;
  /** After a successful send. */
  sent: () => Promise<void>;
}

/** The paced wait, the claims right before the send, the send on the bulk stream; the claims are released when it fails. */
async function sendOnce(
  user: ReminderUser,
  day: string,
  message: ListEmailMessage,
  context: RemindContext,
  steps?: SendSteps,
): Promise<Outcome> {
  // The paced wait comes before the claim: a worker that runs out of time while waiting holds no
  // claimed-but-unsent learner, and one that may not claim leaves the learner to its continuation.
  await context.pace();
  if (!context.mayClaim()) return 'deferred';
  if (!(await claimDay(user, day, context.now))) return 'skipped';
  if (steps && !(await steps.claim())) return 'skipped';
  let delivery: Delivery;
  try {
    delivery = await context.send(message);
  } catch (error) {
    await steps?.release();
    await releaseDay(user.id, day);
    throw error;
  }
  await steps?.sent();
  if (delivery === 'allowlist_block') return 'skipped';
  context.onSent?.(message);
  return 'sent';
}

/** The once-a-day marker; false when this learner was already reminded today. */
async function claimDay(user: Pick<UserRecord, 'id'>, day: string, now: Date): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.reminderSent(user.id, day),
          type: 'reminder_sent',
          user_id: user.id,
          day,
          sent_at: now.toISOString(),
          expires_at: ttlIn(MARKER_TTL_SECONDS, now.getTime()),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

async function releaseDay(userId: string, day: string) {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.reminderSent(userId, day) }));
}

/** Finished or paused learners leave the index (only if it still points where we found it, or at `seen`). */
async function removeFromIndex(enrollment: EnrollmentRecord, seen = indexPartitionOf('remindersDue', enrollment)) {
  await conditional(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.enrollment(enrollment.user_id, enrollment.program_id),
      UpdateExpression: 'REMOVE #ipk, #isk',
      ConditionExpression: '#ipk = :seen',
      ExpressionAttributeNames: reminderIndexNames(),
      ExpressionAttributeValues: { ':seen': seen },
    }),
  );
}

/** The frequency, zone or UTC offset changed without the index following: move the entry to the right partition. */
async function repairIndex(enrollment: EnrollmentRecord, expectedPartition: string) {
  await conditional(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.enrollment(enrollment.user_id, enrollment.program_id),
      UpdateExpression: 'SET #ipk = :pk, #isk = :sk',
      ConditionExpression: '#ipk = :seen',
      ExpressionAttributeNames: reminderIndexNames(),
      ExpressionAttributeValues: {
        ':pk': expectedPartition,
        ':sk': enrollment.user_id,
        ':seen': indexPartitionOf('remindersDue', enrollment),
      },
    }),
  );
}

function reminderIndexNames() {
  const [pkName, skName] = indexAttributes('remindersDue');
  return { '#ipk': pkName, '#isk': skName };
}

async function conditional(command: UpdateCommand) {
  try {
    await db().send(command);
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}
