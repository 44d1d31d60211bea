import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dayOf } from '../lib/activity';
import { appUrl } from '../lib/app-url';
import { config } from '../lib/config';
import { db, tableName } from '../lib/db';
import { sendEmail, type Delivery, type EmailMessage, type ListEmailMessage } from '../lib/email';
import { signUnsubscribeToken } from '../lib/unsubscribe-token';
import { isEmailSuppressed } from '../lib/email-suppression';
import { logger } from '../lib/logger';
import { isDailyQuotaExceeded } from '../lib/ses-retry';
import { indexAttributes, indexPartitionOf, indexQuery, keys, ttlIn } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import type { Program } from './content';
import { publishedProgram } from './published-program';
import { deriveProgress } from './progress';
import { reminderEmail } from './reminder-email';
import { reminderPartition, reminderPartitions, weekdayOf } from './reminder-index';
import { listProgress, type EnrollmentRecord } from './store';

/**
 * Reminders that fan out (docs/scale-writes.md).
 *
 * Who: learners in the sparse reminder index (reminder-index.ts). The daily schedule splits the
 * day's index partitions (every daily shard, today's weekly shards) into messages of one
 * partition and one first hex digit of the user id (20 × 16 = 320), queued (SQS, with a DLQ);
 * workers (bounded concurrency) read their slice page by page by Query — never a Scan — and
 * send at the configured rate (SES's account send rate over the number of workers). Per page
 * they read the learners' accounts in one BatchGetItem: with the enrollment (the index item:
 * open module, percent, status) that is everything the email needs, one read per learner.
 * The account is re-checked at send time: locked, unverified, deleted or purging learners get
 * nothing; learners who finished leave the index.
 *
 * Resume: after every page the slice's checkpoint (JOB#reminders#<day> / PART#<slice>) keeps
 * the index cursor; a worker near its timeout enqueues its own continuation, a crashed one is
 * redelivered by SQS, and both start from the checkpoint.
 *
 * Once per day: a REMINDER#<day> marker is written with a condition BEFORE sending. Writing it
 * first makes a rerun, a redelivery or an overlapping worker skip that learner: at most one
 * reminder a day, even if a worker crashes between the marker and the send (then that learner
 * misses one reminder, which is better than spamming). When the send fails for good, the marker
 * is deleted so a rerun can try again.
 */
export interface ReminderSummary {
  considered: number;
  sent: number;
  skipped: number;
  failed: number;
}

export interface ReminderOptions {
  now?: Date;
  /** Emails in flight at once within one worker. */
  concurrency?: number;
  /** Attempts per email when SES throttles. */
  maxAttempts?: number;
  /** Backoff base in ms (doubled per attempt, with jitter). */
  backoffMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Called for each email sent (the local runner prints them). */
  onSent?: (message: EmailMessage) => void;
  /** Emails per second of one worker (default: REMINDER_SEND_RATE / REMINDER_WORKERS). */
  ratePerSecond?: number;
  /** Slices processed at once by `runReminders` (default REMINDER_WORKERS). */
  workers?: number;
  /** Milliseconds the worker has left; it checkpoints and stops below a margin. */
  timeLeftMs?: () => number;
}

/** One unit of queued reminder work: a slice of one index partition for one day. */
export interface ReminderSliceMessage {
  day: string;
  /** The run's time (ISO): due-ness and the once-a-day marker use it. */
  now: string;
  partition: string;
  /** First hex digit of the user ids (the index sort key) in the slice. */
  prefix: string;
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
  message: ListEmailMessage,
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

/** User ids are random UUIDs (users.ts): their first hex digit splits a partition into 16 slices. */
export const SLICE_PREFIXES = '0123456789abcdef'.split('');
const CHECKPOINT_TTL_SECONDS = 3 * 24 * 3600;
const STOP_MARGIN_MS = 15_000;

/** The day's work: every partition the day reads (reminder-index.ts) × every slice. */
export function reminderMessages(now: Date): ReminderSliceMessage[] {
  const day = dayOf(now);
  return reminderPartitions(now).flatMap((partition) =>
    SLICE_PREFIXES.map((prefix) => ({ day, now: now.toISOString(), partition, prefix })),
  );
}

/** Paces sends to `perSecond` (one worker's share of the account's send rate). */
export function pacer(perSecond: number, sleep: (ms: number) => Promise<void>) {
  const interval = 1000 / perSecond;
  let next = 0;
  return async () => {
    const now = Date.now();
    const at = Math.max(now, next);
    next = at + interval;
    if (at > now) await sleep(at - now);
  };
}

type ReminderUser = Pick<
  UserRecord,
  'id' | 'email' | 'first_name' | 'status' | 'is_locked' | 'verified' | 'reminder_frequency' | 'email_suppressed'
>;

async function readUsers(ids: string[]): Promise<Map<string, ReminderUser>> {
  const users = new Map<string, ReminderUser>();
  let pending: Record<string, unknown>[] = ids.map((id) => keys.user(id));
  for (let attempt = 0; pending.length; attempt++) {
    if (attempt > 6) throw new Error('BatchGetItem left keys unprocessed');
    if (attempt) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
    const result = await db().send(
      new BatchGetCommand({
        RequestItems: {
          [tableName()]: {
            Keys: pending,
            ProjectionExpression: 'id, email, first_name, #status, is_locked, verified, reminder_frequency, email_suppressed',
            ExpressionAttributeNames: { '#status': 'status' },
          },
        },
      }),
    );
    for (const item of result.Responses?.[tableName()] ?? []) users.set(String(item.id), item as ReminderUser);
    pending = result.UnprocessedKeys?.[tableName()]?.Keys ?? [];
  }
  return users;
}

/**
 * Works through one slice from its checkpoint: page by page, one BatchGetItem of accounts per
 * page, sends paced to the worker's rate. Returns what it did and whether the slice is finished
 * (false: out of time, checkpointed; the caller enqueues the continuation).
 */
export async function processReminderSlice(
  message: ReminderSliceMessage,
  options: ReminderOptions = {},
): Promise<ReminderSummary & { finished: boolean }> {
  const now = new Date(message.now);
  const summary: ReminderSummary = { considered: 0, sent: 0, skipped: 0, failed: 0 };
  const checkpointKey = keys.reminderCheckpoint(message.day, `${message.partition}#${message.prefix}`);
  const checkpoint = (await db().send(new GetCommand({ TableName: tableName(), Key: checkpointKey, ConsistentRead: true }))).Item;
  if (checkpoint?.done) return { ...summary, finished: true };
  const sleep = options.sleep ?? defaultSleep;
  const cfg = config();
  const pace = pacer(options.ratePerSecond ?? cfg.reminderSendRate / cfg.reminderWorkers, sleep);
  const timeLeft = options.timeLeftMs ?? (() => Number.POSITIVE_INFINITY);
  const baseUrl = await appUrl();
  // the reminders name the open module as the published version has it (read once a slice, if it has learners)
  let content: Program | undefined;
  let startKey = checkpoint?.cursor as Record<string, unknown> | undefined;
  do {
    if (timeLeft() < STOP_MARGIN_MS) return { ...summary, finished: false };
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        ...indexQuery('remindersDue', message.partition, message.prefix),
        Limit: PAGE_SIZE,
        ExclusiveStartKey: startKey,
      }),
    );
    const enrollments = (page.Items ?? []) as EnrollmentRecord[];
    const users = enrollments.length
      ? await readUsers(enrollments.map((enrollment) => enrollment.user_id))
      : new Map<string, ReminderUser>();
    if (enrollments.length) content ??= await publishedProgram();
    const published = content!;
    const before = { ...summary };
    let quotaSpent: Error | undefined;
    await forEachBounded(enrollments, options.concurrency ?? 10, async (enrollment) => {
      if (quotaSpent) return;
      summary.considered += 1;
      try {
        const outcome = await remindOne(
          published,
          enrollment,
          users.get(enrollment.user_id),
          message.partition,
          now,
          baseUrl,
          options,
          pace,
        );
        summary[outcome] += 1;
      } catch (error) {
        if (isDailyQuotaExceeded(error)) quotaSpent ??= error as Error;
        summary.failed += 1;
        logger.error('reminder failed', { user_id: enrollment.user_id, error: error as Error });
      }
    });
    // SES's 24-hour quota is spent: every further send would be refused too. The slice fails
    // here without checkpointing this page (learners mailed already hold their day marker, the
    // others had theirs released), so SQS delivers it again later and it resumes at this page.
    if (quotaSpent) throw quotaSpent;
    startKey = page.LastEvaluatedKey;
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: checkpointKey,
        UpdateExpression:
          'SET #type = :type, #cursor = :cursor, #done = :done, expires_at = :ttl ADD considered :c, sent :s, skipped :k, failed :f',
        ExpressionAttributeNames: { '#type': 'type', '#cursor': 'cursor', '#done': 'done' },
        ExpressionAttributeValues: {
          ':type': 'reminder_checkpoint',
          ':cursor': startKey ?? null,
          ':done': !startKey,
          ':ttl': ttlIn(CHECKPOINT_TTL_SECONDS, now.getTime()),
          ':c': summary.considered - before.considered,
          ':s': summary.sent - before.sent,
          ':k': summary.skipped - before.skipped,
          ':f': summary.failed - before.failed,
        },
      }),
    );
  } while (startKey);
  return { ...summary, finished: true };
}

/**
 * Runs the day's reminders in this process: the same messages the schedule queues, handled by
 * the same slice worker (`npm run reminders`, tests, the benchmark).
 */
export async function runReminders(options: ReminderOptions = {}): Promise<ReminderSummary> {
  const now = options.now ?? new Date();
  const summary: ReminderSummary = { considered: 0, sent: 0, skipped: 0, failed: 0 };
  const workers = options.workers ?? config().reminderWorkers;
  await forEachBounded(reminderMessages(now), workers, async (message) => {
    try {
      const done = await processReminderSlice(message, options);
      for (const field of ['considered', 'sent', 'skipped', 'failed'] as const) summary[field] += done[field];
    } catch (error) {
      summary.failed += 1;
      logger.error('reminder slice failed', { partition: message.partition, prefix: message.prefix, error: error as Error });
    }
  });
  logger.info('reminders done', { ...summary, day: dayOf(now) });
  return summary;
}

type Outcome = 'sent' | 'skipped';

async function remindOne(
  content: Program,
  enrollment: EnrollmentRecord,
  user: ReminderUser | undefined,
  partition: string,
  now: Date,
  baseUrl: string,
  options: ReminderOptions,
  pace: () => Promise<void>,
): Promise<Outcome> {
  if (!user) return 'skipped';
  // Admin actions (lock, delete, purge) and verification change the user item only: check it now.
  if (user.status !== 'active' || user.is_locked || !user.verified) return 'skipped';
  // SES reported the address as hard-bounced or complaining: optional mail stops.
  if (isEmailSuppressed(user)) return 'skipped';
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
  const frequency = user.reminder_frequency ?? 'daily';
  const expected = reminderPartition(user.id, frequency, enrollment.enrolled_at);
  if (!expected) {
    // reminders turned off (Settings or the unsubscribe link) without the index following
    await removeFromIndex(enrollment);
    return 'skipped';
  }
  if (expected !== partition) await repairIndex(enrollment, expected);
  const due = frequency === 'daily' || weekdayOf(enrollment.enrolled_at) === now.getUTCDay();
  if (!due) return 'skipped';

  const day = dayOf(now);
  if (!(await claimDay(user, day, now))) return 'skipped';
  const message = reminderEmail({
    to: user.email,
    firstName: user.first_name,
    module: open,
    percent,
    frequency,
    programTitle: content.title,
    baseUrl,
    unsubscribeUrl: `${baseUrl}/api/notifications/unsubscribe?token=${encodeURIComponent(await signUnsubscribeToken(user.id))}`,
  });
  try {
    await pace();
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

/** Finished learners leave the index (only if it still points where we found it). */
async function removeFromIndex(enrollment: EnrollmentRecord) {
  await conditional(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.enrollment(enrollment.user_id, enrollment.program_id),
      UpdateExpression: 'REMOVE #ipk, #isk',
      ConditionExpression: '#ipk = :seen',
      ExpressionAttributeNames: reminderIndexNames(),
      ExpressionAttributeValues: { ':seen': indexPartitionOf('remindersDue', enrollment) },
    }),
  );
}

/** The frequency changed without the index following: move the entry to the right partition. */
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
