import { passkeyLookupKeys } from '../accounts/passkey-records';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { program } from '../program/content';
import type { EnrollmentRecord } from '../program/store';
import { dayOf } from '../lib/activity';
import { auditPuts, type AuditInput } from '../lib/audit';
import { batchDeleteItems, batchGetItems } from '../lib/batch-items';
import { db, tableName } from '../lib/db';
import { ApiError, notFound } from '../lib/errors';
import { failedConditions, withWriteRetries } from '../lib/retry';
import {
  dayCounterUpdate,
  enrollDayUpdate,
  enrollmentCounts,
  lastActiveStatusMove,
  negated,
  statsUpdate,
  unverifiedDeltas,
  week1CountedOnTime,
} from '../lib/stats';
import { GSIS, keyAfter, keys, PK, ttlIn } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { getUserById, searchItems } from '../lib/users';
import { ACTIVITY_DAYS, DAY_MS, type Item, linkedItems, kindOf } from './account-items';
import { auditSources, anonymiseEntries } from './audit-anonymisation';
import { personalText } from './personal-text';
import { scrubProgramAuthorPage } from './program-author-scrub';
import { streamKeys } from './paging';
import { currentDate, nowIso } from '../lib/clock';

/** The account's email and names, as the scrubs look for them (personal-text.ts). */
const personalValues = (user: UserRecord) =>
  new Set([user.email_lower, user.first_name, user.last_name, `${user.first_name} ${user.last_name}`].map((value) => value.toLowerCase()));

async function batchDelete(items: Array<{ pk: string; sk: string }>): Promise<void> {
  await batchDeleteItems(items.map((item) => ({ pk: item.pk, sk: item.sk })));
}

/** Where a paged step resumes (a DynamoDB LastEvaluatedKey). */
type Cursor = Record<string, unknown> | undefined;

/**
 * Hard delete as a purge job (docs/scale-writes.md). The request marks the account `purging`
 * in one transaction that also takes it out of every aggregate, removes it from every list and
 * index (user indexes, search items, email guard, enrollment) and writes the audit entry. Then
 * the steps run, each idempotent and checkpointed in PURGE#<id>/JOB:
 *   partition  every USER#<id> item except the profile (sessions, codes, progress, tasks…)
 *   activity   the ACTIVITY#<day> items of the 401 days they can live, each deleted with the
 *              day counter's −1 in one conditional transaction (counted exactly once)
 *   audit      personal data in the account's audit entries replaced by ANONYMOUS
 *   program    an administrator's email in the program's draft and versions (their author
 *              references) and their email and names in its change notes replaced by ANONYMOUS
 *              (program-author-scrub.ts); nothing to do for a learner
 *   finish     the login back-off, then the profile LAST, and the job marked done
 * Small accounts finish inside the request. Otherwise the job continues in the background (the
 * purge queue), and a delayed safety message sent before the first step finishes it even when
 * the request dies; an admin's rerun resumes it too.
 */
export type PurgeStep = 'partition' | 'activity' | 'audit' | 'program' | 'finish';
export const PURGE_JOB_TTL_SECONDS = 90 * 24 * 3600;
/** Time the request gives the purge before handing it to the background (the API Lambda has 10 s). */
export const INLINE_BUDGET_MS = 5_000;
/** The safety continuation comes after the request surely ended. */
export const SAFETY_DELAY_SECONDS = 60;
const PAGE = 100;
const ACTIVITY_CHUNK = 25;

export interface PurgeJob {
  pk: string;
  sk: string;
  type: 'purge_job';
  user_id: string;
  status: 'purging' | 'done';
  step: PurgeStep;
  cursor?: Cursor;
  /** activity: days done from `started_at`'s day; audit: the source being read */
  position?: number;
  enrollment_id?: string;
  counts: Record<string, number>;
  started_at: string;
  updated_at: string;
  finished_at?: string;
  expires_at?: number;
}

export interface PurgeOptions {
  /** Milliseconds left for this run; the job checkpoints and stops below the margin. */
  timeLeftMs?: () => number;
}

export async function readJob(userId: string): Promise<PurgeJob | undefined> {
  return (await db().send(new GetCommand({ TableName: tableName(), Key: keys.purgeJob(userId), ConsistentRead: true }))).Item as
    PurgeJob | undefined;
}

/** `GET …/purge`: where a hard delete stands (no personal data in it). */
export async function purgeStatus(userId: string): Promise<{
  status: PurgeJob['status'];
  step: PurgeStep;
  counts: Record<string, number>;
  started_at: string;
  finished_at: string | null;
}> {
  const job = await readJob(userId);
  if (!job) throw notFound();
  return { status: job.status, step: job.step, counts: job.counts, started_at: job.started_at, finished_at: job.finished_at ?? null };
}

async function checkpoint(job: PurgeJob) {
  job.updated_at = nowIso();
  await db().send(new PutCommand({ TableName: tableName(), Item: job }));
}

const removeIndexKeys = () => GSIS.flatMap((gsi) => [gsi.partitionKey, gsi.sortKey]).join(', ');

/**
 * The purge's first transaction: marked `purging`, out of every aggregate, list and index (the
 * erasure index too). `audit` is who asked: an admin, or the system after retention (erasure.ts).
 */
export async function startPurge(user: UserRecord, audit: AuditInput, now: Date): Promise<void> {
  const content = program();
  const enrollmentKey = keys.enrollment(user.id, content.id);
  const enrollment = (await db().send(new GetCommand({ TableName: tableName(), Key: enrollmentKey, ConsistentRead: true }))).Item as
    EnrollmentRecord | undefined;
  const lastActiveDay = user.last_active_day;
  const onTime = Boolean(enrollment && week1CountedOnTime(enrollment));
  const at = now.toISOString();
  const job: PurgeJob = {
    ...keys.purgeJob(user.id),
    type: 'purge_job',
    user_id: user.id,
    status: 'purging',
    step: 'partition',
    enrollment_id: enrollment?.id,
    counts: {
      profile: 1,
      email_guard: 1,
      enrollments: enrollment ? 1 : 0,
      search_entries: searchItems(user).length,
      activity_days: 0,
      audit_entries_anonymised: 0,
      program_items_scrubbed: 0,
    },
    started_at: at,
    updated_at: at,
  };
  await withWriteRetries(() =>
    db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: keys.user(user.id),
              // it vanishes from every list and index at once; the profile itself goes last
              UpdateExpression: `SET #status = :purging, purge_started_at = :at, updated_at = :at ADD #version :one REMOVE ${removeIndexKeys()}`,
              ConditionExpression: '#status = :deleted AND #version = :version',
              ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
              ExpressionAttributeValues: { ':purging': 'purging', ':deleted': 'deleted', ':version': user.version, ':at': at, ':one': 1 },
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: job,
              ConditionExpression: 'attribute_not_exists(pk) OR #status = :done',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':done': 'done' },
            },
          },
          {
            Delete: {
              TableName: tableName(),
              Key: keys.email(user.email),
              ConditionExpression: 'attribute_not_exists(pk) OR user_id = :id',
              ExpressionAttributeValues: { ':id': user.id },
            },
          },
          ...(enrollment ? [{ Delete: { TableName: tableName(), Key: enrollmentKey } }] : []),
          ...searchItems(user).map(({ pk, sk }) => ({ Delete: { TableName: tableName(), Key: { pk, sk } } })),
          statsUpdate({
            users_deleted: -1,
            ...unverifiedDeltas(user, undefined),
            // what the enrollment counts, module funnel included (a staff preview counts nothing)
            ...(enrollment ? negated(enrollmentCounts(enrollment)) : {}),
          })!,
          ...(enrollment && !enrollment.staff
            ? [enrollDayUpdate(enrollment.enrolled_at, { enrolled: -1, week1_on_time: onTime ? -1 : 0 })]
            : []),
          // out of the last-active histogram: its count and its status's field (stats.ts)
          ...(lastActiveDay ? [lastActiveStatusMove({ status: user.status, last_active_day: lastActiveDay }, undefined)!] : []),
          ...auditPuts(audit),
        ],
      }),
    ),
  ).catch((error: unknown) => {
    // a concurrent hard delete (or any change to the account) won the race
    if (failedConditions(error).length) throw new ApiError(409, 'conflict');
    throw error;
  });
}

/** Deletes the ACTIVITY items of these days and takes each out of its day's count, exactly once. */
async function purgeActivityDays(userId: string, days: string[]): Promise<number> {
  const found = (await batchGetItems(
    days.map((day) => keys.activity(day, userId)),
    { projection: ['pk', 'sk', 'day'] },
  )) as Item[];
  const writes = (item: Item) => [
    { Delete: { TableName: tableName(), Key: { pk: item.pk, sk: item.sk }, ConditionExpression: 'attribute_exists(pk)' } },
    dayCounterUpdate('DAILYACTIVE', typeof item.day === 'string' ? item.day : keyAfter(PK.activity, item.pk), { count: -1 })!,
  ];
  if (!found.length) return 0;
  try {
    await withWriteRetries(() => db().send(new TransactWriteCommand({ TransactItems: found.flatMap(writes) })));
    return found.length;
  } catch (error) {
    if (!failedConditions(error).length) throw error;
  }
  // Some were deleted by an interrupted earlier run: one by one, skipping those.
  let deleted = 0;
  for (const item of found) {
    try {
      await withWriteRetries(() => db().send(new TransactWriteCommand({ TransactItems: writes(item) })));
      deleted += 1;
    } catch (error) {
      if (!failedConditions(error).includes(0)) throw error;
    }
  }
  return deleted;
}

/**
 * Runs the purge's remaining steps until done or out of time (then checkpointed: a rerun, the
 * background worker or the safety message resumes from there). Returns the job.
 */
export async function continuePurge(userId: string, options: PurgeOptions = {}): Promise<PurgeJob> {
  const timeLeft = options.timeLeftMs ?? (() => Number.POSITIVE_INFINITY);
  const job = await readJob(userId);
  if (!job) throw notFound();
  if (job.status === 'done') return job;
  const user = await getUserById(userId);
  const outOfTime = () => timeLeft() < 1_000;

  while (job.status === 'purging') {
    if (outOfTime()) {
      await checkpoint(job);
      return job;
    }
    if (job.step === 'partition') {
      const page = await db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.user(userId).pk },
          ProjectionExpression: 'pk, sk, verification_code',
          ConsistentRead: true,
          Limit: PAGE,
          ExclusiveStartKey: job.cursor,
        }),
      );
      const items = ((page.Items ?? []) as Item[]).filter((item) => item.sk !== 'PROFILE');
      // passkeys' credential lookups and the certificate's public copy live outside the partition
      await batchDelete([...items, ...passkeyLookupKeys(items), ...linkedItems(items)]);
      for (const item of items) job.counts[kindOf(item.sk)] = (job.counts[kindOf(item.sk)] ?? 0) + 1;
      job.cursor = page.LastEvaluatedKey;
      if (!job.cursor) Object.assign(job, { step: 'activity', position: 0 });
    } else if (job.step === 'activity') {
      // days counted back from the day the purge started: a rerun days later covers the same days
      const from = job.position ?? 0;
      const base = Date.parse(job.started_at);
      const days = Array.from({ length: Math.min(ACTIVITY_CHUNK, ACTIVITY_DAYS - from) }, (_, index) =>
        dayOf(new Date(base - (from + index) * DAY_MS)),
      );
      job.counts.activity_days += await purgeActivityDays(userId, days);
      job.position = from + days.length;
      if (job.position >= ACTIVITY_DAYS) Object.assign(job, { step: 'audit', position: 0, cursor: undefined });
    } else if (job.step === 'audit') {
      const sources = auditSources(userId, job.enrollment_id);
      const source = sources[job.position ?? 0];
      if (!source || !user) {
        // only an administrator authors the program
        Object.assign(job, { step: user?.role === 'admin' ? 'program' : 'finish', cursor: undefined });
      } else {
        const keysOf = streamKeys(source.index);
        const page = await db().send(
          new QueryCommand({
            TableName: tableName(),
            ...(keysOf.indexName ? { IndexName: keysOf.indexName } : {}),
            KeyConditionExpression: `${keysOf.partitionKey} = :pk`,
            ExpressionAttributeValues: { ':pk': source.pk },
            Limit: PAGE,
            ExclusiveStartKey: job.cursor,
          }),
        );
        const entries = (page.Items ?? []) as Item[];
        await anonymiseEntries(entries, user, personalValues(user));
        job.counts.audit_entries_anonymised += entries.length;
        job.cursor = page.LastEvaluatedKey;
        if (!job.cursor) job.position = (job.position ?? 0) + 1;
      }
    } else if (job.step === 'program') {
      if (user) {
        // `?? 0`: a job started before this step existed has no such count
        const page = await scrubProgramAuthorPage(userId, personalText(personalValues(user)), job.cursor);
        job.counts.program_items_scrubbed = (job.counts.program_items_scrubbed ?? 0) + page.scrubbed;
        job.cursor = page.cursor;
      }
      if (!job.cursor) Object.assign(job, { step: 'finish', cursor: undefined });
    } else {
      if (user) {
        await batchDelete([keys.loginBackoff(user.email)]);
        // the profile last: until now a rerun still had everything it needed
        await db().send(
          new DeleteCommand({
            TableName: tableName(),
            Key: keys.user(userId),
            ConditionExpression: 'attribute_not_exists(pk) OR #status = :purging',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':purging': 'purging' },
          }),
        );
      }
      const at = currentDate();
      Object.assign(job, {
        status: 'done',
        cursor: undefined,
        finished_at: at.toISOString(),
        expires_at: ttlIn(PURGE_JOB_TTL_SECONDS, at.getTime()),
      });
    }
    await checkpoint(job);
  }
  return job;
}

/** The message the purge worker (functions/jobs/purge.ts) receives. */
export interface PurgeMessage {
  user_id: string;
}
