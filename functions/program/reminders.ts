import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dayOf } from '../lib/activity';
import { appUrl } from '../lib/app-url';
import { db, tableName } from '../lib/db';
import { sendEmail, type Delivery, type EmailMessage } from '../lib/email';
import { isEmailSuppressed } from '../lib/email-suppression';
import { logger } from '../lib/logger';
import { keys, ttlIn } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { getUserById } from '../lib/users';
import { program } from './content';
import { deriveProgress } from './progress';
import { reminderEmail } from './reminder-email';
import { reminderIndexKeys, reminderPartitions, weekdayOf } from './reminder-index';
import { listProgress, type EnrollmentRecord } from './store';

/**
 * The reminder job (run daily by EventBridge; `npm run reminders` locally).
 *
 * Who: learners in the sparse reminder index (reminder-index.ts), re-checked at send time
 * against the user item (verified, active, not locked) and their progress (a module left).
 * Daily learners get one reminder a day; weekly learners one a week, on the UTC weekday they
 * enrolled. Recipients are read page by page by Query (never a Scan) and sent with bounded
 * concurrency; SES throttling is retried with exponential backoff; a failed address is counted
 * and the batch goes on.
 *
 * Once per day: a REMINDER#<day> marker is written with a condition BEFORE sending. Writing it
 * first makes a rerun (or an overlapping run) skip that learner: at most one reminder a day,
 * even if a run crashes between the marker and the send (then that learner misses one
 * reminder, which is better than spamming). When the send fails for good, the marker is deleted
 * so a rerun can try again.
 */
export interface ReminderSummary {
  considered: number;
  sent: number;
  skipped: number;
  failed: number;
}

export interface ReminderOptions {
  now?: Date;
  /** Emails in flight at once. */
  concurrency?: number;
  /** Attempts per email when SES throttles. */
  maxAttempts?: number;
  /** Backoff base in ms (doubled per attempt, with jitter). */
  backoffMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Called for each email sent (the local runner prints them). */
  onSent?: (message: EmailMessage) => void;
}

const PAGE_SIZE = 100;
const MARKER_TTL_SECONDS = 40 * 24 * 3600;
const THROTTLING = new Set(['Throttling', 'ThrottlingException', 'TooManyRequestsException']);

export const isThrottling = (error: unknown) => {
  const e = error as { name?: string; Code?: string; Error?: { Code?: string } } | null;
  return Boolean(e && (THROTTLING.has(e.name ?? '') || THROTTLING.has(e.Code ?? '') || THROTTLING.has(e.Error?.Code ?? '')));
};

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Sends one email, retrying SES throttling with exponential backoff and jitter. */
export async function sendWithRetry(
  message: EmailMessage,
  { maxAttempts = 5, backoffMs = 200, sleep = defaultSleep }: Pick<ReminderOptions, 'maxAttempts' | 'backoffMs' | 'sleep'> = {},
): Promise<Delivery> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await sendEmail(message);
    } catch (error) {
      if (!isThrottling(error) || attempt >= maxAttempts) throw error;
      const delay = backoffMs * 2 ** (attempt - 1);
      await sleep(delay / 2 + Math.random() * (delay / 2));
    }
  }
}

/** Runs `task` over `items` with at most `limit` at a time. `task` must not throw. */
export async function forEachBounded<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export async function runReminders(options: ReminderOptions = {}): Promise<ReminderSummary> {
  const now = options.now ?? new Date();
  const summary: ReminderSummary = { considered: 0, sent: 0, skipped: 0, failed: 0 };
  const baseUrl = await appUrl();
  for (const partition of reminderPartitions(now)) {
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi3',
          KeyConditionExpression: 'gsi3pk = :partition',
          ExpressionAttributeValues: { ':partition': partition },
          Limit: PAGE_SIZE,
          ExclusiveStartKey: startKey,
        }),
      );
      startKey = page.LastEvaluatedKey;
      const enrollments = (page.Items ?? []) as EnrollmentRecord[];
      await forEachBounded(enrollments, options.concurrency ?? 5, async (enrollment) => {
        summary.considered += 1;
        try {
          const outcome = await remindOne(enrollment, partition, now, baseUrl, options);
          summary[outcome] += 1;
        } catch (error) {
          summary.failed += 1;
          logger.error('reminder failed', { user_id: enrollment.user_id, error: error as Error });
        }
      });
    } while (startKey);
  }
  logger.info('reminders done', { ...summary, day: dayOf(now) });
  return summary;
}

type Outcome = 'sent' | 'skipped';

async function remindOne(enrollment: EnrollmentRecord, partition: string, now: Date, baseUrl: string, options: ReminderOptions): Promise<Outcome> {
  const user = await getUserById(enrollment.user_id, false);
  if (!user) return 'skipped';
  // Admin actions (lock, delete) and verification change the user item only: check it now.
  if (user.status !== 'active' || user.is_locked || !user.verified) return 'skipped';
  // SES reported the address as hard-bounced or complaining: optional mail stops.
  if (isEmailSuppressed(user)) return 'skipped';
  const content = program();
  const derived = deriveProgress(content, await listProgress(user.id, content.id));
  if (!derived.open || enrollment.status === 'completed') {
    await removeFromIndex(enrollment);
    return 'skipped';
  }
  const frequency = user.reminder_frequency ?? 'daily';
  const expected = reminderIndexKeys(user.id, frequency, enrollment.enrolled_at);
  if (expected.gsi3pk !== partition) await repairIndex(enrollment, expected);
  const due = frequency === 'daily' || weekdayOf(enrollment.enrolled_at) === now.getUTCDay();
  if (!due) return 'skipped';

  const day = dayOf(now);
  if (!(await claimDay(user, day, now))) return 'skipped';
  const message = reminderEmail({
    to: user.email,
    firstName: user.first_name,
    module: derived.open,
    percent: derived.percent,
    frequency,
    programTitle: content.title,
    baseUrl,
  });
  try {
    const delivery = await sendWithRetry(message, options);
    if (delivery === 'allowlist_block') return 'skipped';
    options.onSent?.(message);
    return 'sent';
  } catch (error) {
    await releaseDay(user.id, day);
    throw error;
  }
}

/** The once-a-day marker; false when this learner was already reminded today. */
async function claimDay(user: UserRecord, day: string, now: Date): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.reminderSent(user.id, day), type: 'reminder_sent', user_id: user.id, day, sent_at: now.toISOString(), expires_at: ttlIn(MARKER_TTL_SECONDS, now.getTime()) },
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

/** Finished learners leave the index (only if it still points where we found it). */
async function removeFromIndex(enrollment: EnrollmentRecord) {
  await conditional(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.enrollment(enrollment.user_id, enrollment.program_id),
      UpdateExpression: 'REMOVE gsi3pk, gsi3sk',
      ConditionExpression: 'gsi3pk = :seen',
      ExpressionAttributeValues: { ':seen': enrollment.gsi3pk },
    }),
  );
}

/** The frequency changed without the index following: move the entry to the right partition. */
async function repairIndex(enrollment: EnrollmentRecord, expected: { gsi3pk: string; gsi3sk: string }) {
  await conditional(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.enrollment(enrollment.user_id, enrollment.program_id),
      UpdateExpression: 'SET gsi3pk = :pk, gsi3sk = :sk',
      ConditionExpression: 'gsi3pk = :seen',
      ExpressionAttributeValues: { ':pk': expected.gsi3pk, ':sk': expected.gsi3sk, ':seen': enrollment.gsi3pk },
    }),
  );
}

async function conditional(command: UpdateCommand) {
  try {
    await db().send(command);
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}
