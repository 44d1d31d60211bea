import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dayOf } from '../lib/activity';
import { appUrl } from '../lib/app-url';
import { batchGetItems } from '../lib/batch-items';
import { forEachBounded } from '../lib/bounded';
import { BulkShareSpentError, readBulkBudget } from '../lib/bulk-budget';
import { config } from '../lib/config';
import { db, tableName } from '../lib/db';
import type { EmailMessage } from '../lib/email';
import { logger } from '../lib/logger';
import { count, METRIC } from '../lib/metrics';
import { isDailyQuotaExceeded } from '../lib/ses-retry';
import { indexPartitionOf, indexQuery, keys, ttlIn } from '../lib/table';
import { program, type Program } from './content';
import { publishedProgram } from './published-program';
import { remindOne, type Outcome, type RemindContext, type ReminderUser } from './remind-one';
import { reminderPartitions } from './reminder-index';
import { defaultSleep, pacer, sendWithRetry, type SendRetryOptions } from './reminder-sends';
import type { EnrollmentRecord } from './store';
import { currentDate } from '../lib/clock';

/**
 * Reminders that fan out (docs/scale-writes.md).
 *
 * Who: learners in the sparse reminder index (reminder-index.ts), partitioned by the UTC hour of
 * their local morning. The hourly schedule splits the hour's index partitions (every daily shard,
 * the weekly shards of today's UTC weekday) into messages of one partition and one first hex
 * digit of the user id (20 × 16 = 320), queued (SQS, with a DLQ);
 * workers (bounded concurrency) read their slice page by page by Query — never a Scan — and
 * send on the bulk mail stream at their share of its budget (functions/lib/bulk-budget.ts: a
 * configured share of SES's account rate and quota, read with GetAccount when the slice starts).
 * Per page they read the learners' accounts in one BatchGetItem: with the enrollment (the index
 * item: open module, percent, status) that is everything the email needs, one read per learner.
 * The account is re-checked at send time: locked, unverified, deleted or purging learners get
 * nothing; learners who finished leave the index, and learners 4 weeks without activity get one
 * "paused" email and leave it too (reminder-pause.ts).
 *
 * Resume: after every page the slice's checkpoint (JOB#reminders#<day> / PART#<slice>) keeps
 * the index cursor; a worker that may not claim another learner (less than twice a page's
 * duration left, or the bulk share spent) leaves the page unfinished and uncheckpointed, and its
 * continuation (queued by the worker, or SQS's redelivery) starts from the checkpoint.
 *
 * Once per day: a REMINDER#<day> marker (the learner's local day) is written with a condition
 * right before the send (after the paced wait). A rerun, a redelivery or an overlapping worker
 * skips that learner: at most one reminder a day. When the send fails for good the marker is released and the learner noted on
 * the checkpoint; once the slice's pages are done, a later run of the slice (queued
 * RETRY_DELAY_SECONDS later, at most MAX_RETRY_ROUNDS times) tries the noted learners again. A
 * slice older than MAX_SLICE_AGE_MS is dropped: its learners get the next day's reminder.
 */
export interface ReminderSummary {
  considered: number;
  sent: number;
  skipped: number;
  failed: number;
}

export interface SliceResult extends ReminderSummary {
  /** False: the slice has work left; the caller queues its continuation after `continueInSeconds`. */
  finished: boolean;
  continueInSeconds?: number;
}

export interface ReminderOptions extends SendRetryOptions {
  now?: Date;
  /** `runReminders`: the UTC hour whose learners are due (default: every hour of the day). */
  hour?: number;
  /** The worker's time (default: the clock); a slice queued more than MAX_SLICE_AGE_MS before it is dropped. */
  clock?: Date;
  /** Emails in flight at once within one worker. */
  concurrency?: number;
  /** Called for each email sent (the local runner prints them). */
  onSent?: (message: EmailMessage) => void;
  /** Emails per second of one worker (default: its share of the bulk budget, functions/lib/bulk-budget.ts). */
  ratePerSecond?: number;
  /** Slices processed at once by `runReminders` (default REMINDER_WORKERS). */
  workers?: number;
  /** Milliseconds the worker has left; it stops claiming learners below twice a page's duration. */
  timeLeftMs?: () => number;
}

/** One unit of queued reminder work: a slice of one index partition for one run. */
export interface ReminderSliceMessage {
  day: string;
  /** The run's time (ISO): due-ness and the once-a-day marker use it. */
  now: string;
  /** The UTC hour of the run (the hourly schedule); absent: a run of every hour of the day. */
  hour?: number;
  partition: string;
  /** First hex digit of the user ids (the index sort key) in the slice; absent: the whole partition. */
  prefix?: string;
}

const PAGE_SIZE = 100;
/** A later run of a slice retries the learners whose send failed for good (SQS's longest delay). */
export const RETRY_DELAY_SECONDS = 900;
export const MAX_RETRY_ROUNDS = 3;
/**
 * A slice older than this is dropped: its learners' morning is long past, and 12 hours after a
 * local 09:00 is still the same local day, so the day marker keeps it from overlapping the next
 * day's run of that hour (24 hours later).
 */
export const MAX_SLICE_AGE_MS = 12 * 3600 * 1000;

/** User ids are random UUIDs (users.ts): their first hex digit splits a partition into 16 slices. */
export const SLICE_PREFIXES = '0123456789abcdef'.split('');
const CHECKPOINT_TTL_SECONDS = 3 * 24 * 3600;
const STOP_MARGIN_MS = 15_000;

/** The hourly schedule's work: every partition of `now`'s UTC hour (reminder-index.ts), or those given, × every slice prefix. */
export function reminderMessages(now: Date, hour = now.getUTCHours(), partitions = reminderPartitions(now, hour)): ReminderSliceMessage[] {
  const base = { day: dayOf(now), now: now.toISOString(), hour };
  return partitions.flatMap((partition) => SLICE_PREFIXES.map((prefix) => ({ ...base, partition, prefix })));
}

/**
 * The partitions of `now`'s UTC hour that hold at least one learner: one Query of one key each
 * (half a read unit), so that an hour without learners due (a quiet hour of a small deployment,
 * the weekly partitions of a weekday nobody enrolled on) queues no slice, receives no message and
 * runs no worker. A learner who enters an empty partition after this read is reminded by the
 * next day's run of the hour (the same as one entering a partition after its slice was read).
 */
export async function partitionsWithLearners(now: Date, hour = now.getUTCHours()): Promise<string[]> {
  const partitions = reminderPartitions(now, hour);
  const held = await Promise.all(
    partitions.map(async (partition) => {
      const page = await db().send(
        new QueryCommand({ TableName: tableName(), ...indexQuery('remindersDue', partition), Limit: 1, ProjectionExpression: 'pk' }),
      );
      return Boolean(page.Items?.length);
    }),
  );
  return partitions.filter((_, index) => held[index]);
}

/**
 * A run in this process (`runReminders`): every partition of the UTC hour `hour`, or of every
 * hour of the day, each read whole (the prefixes only spread queued work over workers).
 */
export function localRunMessages(now: Date, hour?: number): ReminderSliceMessage[] {
  const base = { day: dayOf(now), now: now.toISOString(), ...(hour === undefined ? {} : { hour }) };
  return reminderPartitions(now, hour).map((partition) => ({ ...base, partition }));
}

/** The checkpoint item of a slice. */
export const sliceCheckpointKey = (message: ReminderSliceMessage) =>
  keys.reminderCheckpoint(message.day, message.prefix === undefined ? message.partition : `${message.partition}#${message.prefix}`);

async function readUsers(ids: string[]): Promise<Map<string, ReminderUser>> {
  const users = (await batchGetItems(
    ids.map((id) => keys.user(id)),
    {
      projection: [
        'id',
        'email',
        'first_name',
        'status',
        'is_locked',
        'verified',
        'reminder_frequency',
        'time_zone',
        'email_suppressed',
        'last_active_day',
        'reminders_paused_at',
        'reminders_resumed_at',
      ],
    },
  )) as ReminderUser[];
  return new Map(users.map((user) => [String(user.id), user]));
}

/** What stopped a worker from claiming more learners in this run of the slice. */
type Stop = 'time' | 'share';

/**
 * One run of a slice: its bulk budget (read once, when it first has learners), its pacing, its
 * time and the learners of one page sent with bounded concurrency.
 */
class SliceRun {
  readonly summary: ReminderSummary = { considered: 0, sent: 0, skipped: 0, failed: 0 };
  stop?: Stop;
  private mailsLeft = Number.POSITIVE_INFINITY;
  private pace?: () => Promise<void>;
  private ratePerSecond?: number;
  private longestPageMs = 0;
  /** The reminders name the open module as the published version has it (read once a run, if it has learners). */
  private content?: Program;
  private readonly timeLeft: () => number;
  private readonly runPartitions: ReadonlySet<string>;

  constructor(
    private readonly message: ReminderSliceMessage,
    private readonly options: ReminderOptions,
    private readonly baseUrl: string,
  ) {
    this.timeLeft = options.timeLeftMs ?? (() => Number.POSITIVE_INFINITY);
    this.runPartitions = new Set(reminderPartitions(new Date(message.now), message.hour));
  }

  /** Below twice a page's duration (measured, or what pacing makes it) the worker claims nobody more. */
  hasTime(): boolean {
    const pagePaced = this.ratePerSecond ? (PAGE_SIZE * 1000) / this.ratePerSecond : 0;
    return this.timeLeft() >= Math.max(STOP_MARGIN_MS, 2 * Math.max(this.longestPageMs, pagePaced));
  }

  private async budget(): Promise<void> {
    if (this.pace) return;
    const workers = this.options.workers ?? config().reminderWorkers;
    const budget = await readBulkBudget(workers);
    this.mailsLeft = budget.mails;
    this.ratePerSecond = this.options.ratePerSecond ?? budget.ratePerSecond;
    this.pace = pacer(this.ratePerSecond, this.options.sleep ?? defaultSleep);
    if (!budget.mails) this.stop = 'share';
  }

  private mayClaim = (): boolean => {
    if (this.stop) return false;
    if (!this.hasTime()) this.stop = 'time';
    else if (this.mailsLeft <= 0) this.stop = 'share';
    if (this.stop) return false;
    this.mailsLeft -= 1;
    return true;
  };

  /**
   * Reminds one page of learners. Returns the ids whose send failed for good and whether every
   * learner of the page was handled (false: stopped, the page is for the continuation).
   */
  async remindPage(
    entries: Array<{ enrollment: EnrollmentRecord; partition: string }>,
  ): Promise<{ failed: string[]; done: string[]; complete: boolean }> {
    const started = performance.now();
    const failed: string[] = [];
    const done: string[] = [];
    if (!entries.length) return { failed, done, complete: true };
    await this.budget();
    const users = await readUsers(entries.map(({ enrollment }) => enrollment.user_id));
    this.content ??= await publishedProgram();
    const context: RemindContext = {
      content: this.content,
      now: new Date(this.message.now),
      runPartitions: this.runPartitions,
      baseUrl: this.baseUrl,
      pace: () => this.pace!(),
      mayClaim: this.mayClaim,
      send: (mail) => sendWithRetry(mail, this.options),
      onSent: this.options.onSent,
    };
    let quotaSpent: Error | undefined;
    let deferred = false;
    await forEachBounded(entries, this.options.concurrency ?? 10, async ({ enrollment, partition }) => {
      if (quotaSpent || this.stop) {
        deferred = true;
        return;
      }
      let outcome: Outcome | 'failed';
      try {
        outcome = await remindOne(enrollment, users.get(enrollment.user_id), partition, context);
      } catch (error) {
        if (isDailyQuotaExceeded(error)) quotaSpent ??= error as Error;
        logger.error('reminder failed', { user_id: enrollment.user_id, error: error as Error });
        outcome = 'failed';
      }
      if (outcome === 'deferred') {
        deferred = true;
        return;
      }
      this.summary.considered += 1;
      this.summary[outcome] += 1;
      (outcome === 'failed' ? failed : done).push(enrollment.user_id);
    });
    // SES's 24-hour quota is spent: every further send would be refused too. The slice fails
    // here without checkpointing this page (learners mailed already hold their day marker, the
    // others had theirs released), so SQS delivers it again later and it resumes at this page.
    if (quotaSpent) throw quotaSpent;
    if (this.stop === 'share') throw new BulkShareSpentError();
    this.longestPageMs = Math.max(this.longestPageMs, performance.now() - started);
    return { failed, done, complete: !deferred };
  }
}

const counts = (before: ReminderSummary, after: ReminderSummary) => ({
  ':c': after.considered - before.considered,
  ':s': after.sent - before.sent,
  ':k': after.skipped - before.skipped,
  ':f': after.failed - before.failed,
});

/**
 * Works through one slice from its checkpoint: page by page, one BatchGetItem of accounts per
 * page, sends paced to the worker's share of the bulk budget; once its pages are done, the
 * learners whose send failed are retried by later runs. Returns what it did and whether the
 * slice is finished (false: the caller queues the continuation).
 */
export async function processReminderSlice(message: ReminderSliceMessage, options: ReminderOptions = {}): Promise<SliceResult> {
  const clock = options.clock ?? currentDate();
  const run = new SliceRun(message, options, await appUrl());
  // A stale slice (a long backlog, an old redelivery): its learners are in the next day's run of the hour.
  if (clock.getTime() - Date.parse(message.now) > MAX_SLICE_AGE_MS) {
    logger.info('stale reminder slice dropped', { run: message.now, partition: message.partition, prefix: message.prefix });
    count(METRIC.reminderSlicesUnfinished); // docs/runbook.md#reminder-slices-unfinished
    return { ...run.summary, finished: true };
  }
  const checkpointKey = sliceCheckpointKey(message);
  const checkpoint = (await db().send(new GetCommand({ TableName: tableName(), Key: checkpointKey, ConsistentRead: true }))).Item;
  if (checkpoint?.done) return { ...run.summary, finished: true };
  // The pages were all read: only the learners noted as failed are left.
  if (checkpoint && checkpoint.cursor === null) return retryFailed(message, run, checkpointKey, checkpoint);
  let startKey = checkpoint?.cursor as Record<string, unknown> | undefined;
  // learners noted as failed by earlier pages or runs of the slice: it is not done before they are retried
  let retryPending = Boolean((checkpoint?.retry as Set<string> | undefined)?.size);
  do {
    if (!run.hasTime()) return { ...run.summary, finished: false };
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        ...indexQuery('remindersDue', message.partition, message.prefix),
        Limit: PAGE_SIZE,
        ExclusiveStartKey: startKey,
      }),
    );
    const before = { ...run.summary };
    const entries = ((page.Items ?? []) as EnrollmentRecord[]).map((enrollment) => ({ enrollment, partition: message.partition }));
    // a slice with no learner at all (no checkpoint, an empty first page): nothing to remember
    if (!checkpoint && !startKey && !entries.length && !page.LastEvaluatedKey) return { ...run.summary, finished: true };
    const { failed, complete } = await run.remindPage(entries);
    // out of time within the page: the continuation reads it again (markers skip whoever was sent)
    if (!complete) return { ...run.summary, finished: false };
    startKey = page.LastEvaluatedKey;
    retryPending ||= failed.length > 0;
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: checkpointKey,
        UpdateExpression: `SET #type = :type, #cursor = :cursor, #done = :done, expires_at = :ttl ADD considered :c, sent :s, skipped :k, failed :f${failed.length ? ', retry :retry' : ''}`,
        ExpressionAttributeNames: { '#type': 'type', '#cursor': 'cursor', '#done': 'done' },
        ExpressionAttributeValues: {
          ':type': 'reminder_checkpoint',
          ':cursor': startKey ?? null,
          ':done': !startKey && !retryPending,
          ':ttl': ttlIn(CHECKPOINT_TTL_SECONDS, new Date(message.now).getTime()),
          ...counts(before, run.summary),
          ...(failed.length ? { ':retry': new Set(failed) } : {}),
        },
      }),
    );
  } while (startKey);
  // the pages are done: the slice is finished, or its failed learners wait for a later run
  return retryPending ? { ...run.summary, finished: false, continueInSeconds: RETRY_DELAY_SECONDS } : { ...run.summary, finished: true };
}

/**
 * A later run of a slice whose pages are done: sends to the learners whose send failed, as
 * the pages did (their day marker was released). After MAX_RETRY_ROUNDS the slice is finished.
 */
async function retryFailed(
  message: ReminderSliceMessage,
  run: SliceRun,
  checkpointKey: Record<string, unknown>,
  checkpoint: Record<string, unknown>,
): Promise<SliceResult> {
  const ids = [...((checkpoint.retry as Set<string> | undefined) ?? [])];
  const enrollments = (await batchGetItems(ids.map((id) => keys.enrollment(id, program().id)))) as unknown as EnrollmentRecord[];
  // learners who left the index since (finished, reminders off) are done
  const inIndex = enrollments.filter((enrollment) => indexPartitionOf('remindersDue', enrollment));
  const before = { ...run.summary };
  const { failed, done } = await run.remindPage(
    inIndex.map((enrollment) => ({ enrollment, partition: indexPartitionOf('remindersDue', enrollment)! })),
  );
  const left = new Set(inIndex.map((enrollment) => enrollment.user_id));
  const settled = [...done, ...ids.filter((id) => !left.has(id))];
  const round = Number(checkpoint.retry_round ?? 0) + 1;
  const finished = run.stop !== 'time' && (!failed.length || round >= MAX_RETRY_ROUNDS);
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: checkpointKey,
      UpdateExpression: `SET #done = :done, retry_round = :round ADD considered :c, sent :s, skipped :k, failed :f${settled.length ? ' DELETE retry :settled' : ''}`,
      ExpressionAttributeNames: { '#done': 'done' },
      ExpressionAttributeValues: {
        ':done': finished,
        ':round': round,
        ...counts(before, run.summary),
        ...(settled.length ? { ':settled': new Set(settled) } : {}),
      },
    }),
  );
  logger.info('reminder retries', { day: message.day, partition: message.partition, prefix: message.prefix, round, left: failed.length });
  return finished
    ? { ...run.summary, finished }
    : { ...run.summary, finished, continueInSeconds: run.stop === 'time' ? 0 : RETRY_DELAY_SECONDS };
}

/**
 * Runs reminders in this process, handled by the same slice worker as the queued messages
 * (`npm run reminders`, tests, the benchmark): every learner due today whatever their send hour,
 * or with `hour` the hourly run of that UTC hour.
 */
export async function runReminders(options: ReminderOptions = {}): Promise<ReminderSummary> {
  const now = options.now ?? currentDate();
  const summary: ReminderSummary = { considered: 0, sent: 0, skipped: 0, failed: 0 };
  const workers = options.workers ?? config().reminderWorkers;
  await forEachBounded(localRunMessages(now, options.hour), workers, async (message) => {
    try {
      const done = await processReminderSlice(message, { clock: now, ...options });
      for (const field of ['considered', 'sent', 'skipped', 'failed'] as const) summary[field] += done[field];
    } catch (error) {
      summary.failed += 1;
      logger.error('reminder slice failed', { partition: message.partition, prefix: message.prefix, error: error as Error });
    }
  });
  logger.info('reminders done', { ...summary, day: dayOf(now) });
  return summary;
}
