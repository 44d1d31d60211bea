import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dayOf } from '../lib/activity';
import { AUDIT_ACTION, type AuditInput } from '../lib/audit';
import { config } from '../lib/config';
import { db, tableName } from '../lib/db';
import { ApiError } from '../lib/errors';
import { logger } from '../lib/logger';
import { enqueue } from '../lib/queue';
import { INDEX, indexPartition, keys, ttlIn } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { getUserById } from '../lib/users';
import { startPurge, type PurgeMessage } from './purge-job';
import { hardDeleteAvailableAt } from '../lib/retention';
import { currentDate } from '../lib/clock';

/**
 * Automatic erasure after retention (docs/product.md#account-data, docs/runbook.md#erasure):
 * once a day, every account soft-deleted longer ago than the retention period (RETENTION_DAYS,
 * what the deletion email promised) gets the same purge as the admin's hard delete, audited
 * with the system as the actor.
 *
 * Who: the sparse erasureDue index (functions/lib/table.ts), ERASURE / <deleted_at>#<id>: a
 * soft-delete enters it, a restore or a purge leaves it, so "due" is one key range (deleted
 * before now − retention), read by Query in pages, never a Scan. Each account is re-checked on
 * its profile (consistent read) before anything happens: the index is eventually consistent and a
 * restore may just have happened.
 *
 * The run only starts each purge (its first transaction: the account `purging`, out of every
 * index, the job item, the audit entry) and queues it, exactly as an admin's hard delete does;
 * the purge workers (functions/jobs/purge.ts) run the steps, as many at once as the purge
 * queue's event source allows (infra/stack.ts). So one run queues thousands of accounts whatever
 * their size, and a bulk of soft-deletes is erased within days, not months. An account already
 * purging is never queued twice: the purge's start takes it out of the index, and a start that
 * finds it no longer `deleted` is skipped.
 *
 * Resume and retries: the day's run keeps its cursor and counts in JOB#erasure#<day>/STATE after
 * every page; a rerun the same day resumes there (a finished day does nothing). An account whose
 * purge start fails stays in the index and is tried again the next day; one started whose message
 * could not be queued counts as failed (the run fails, the ErasuresFailed alarm says so, and the
 * runbook's rerun of the hard delete finishes it).
 */
export const ERASURE_PAGE = 25;
const CHECKPOINT_TTL_SECONDS = 7 * 24 * 3600;
const STOP_MARGIN_MS = 30_000;
const DAY_MS = 24 * 3600 * 1000;

export const SYSTEM_ACTOR = 'system';

export interface ErasureSummary {
  considered: number;
  /** Purges started and queued to the purge workers. */
  queued: number;
  skipped: number;
  failed: number;
}

export interface ErasureOptions {
  now?: Date;
  /** Milliseconds left; the run checkpoints and stops below a margin. */
  timeLeftMs?: () => number;
  pageSize?: number;
}

type Cursor = Record<string, unknown> | undefined;

/** The audit entry of an erasure: actor "system", no request address. */
export function systemEraseAudit(user: Pick<UserRecord, 'id' | 'deleted_at'>, retentionDays: number): AuditInput {
  return {
    action: AUDIT_ACTION.systemHardDelete,
    actor: { email: SYSTEM_ACTOR },
    entityType: 'user',
    entityId: user.id,
    oldValues: { status: 'deleted', deleted_at: user.deleted_at ?? null },
    newValues: { hard_deleted: true, reason: 'retention_expired', retention_days: retentionDays },
  };
}

/** Starts one due account's purge and queues it. 'skipped': not (or no longer) due, restored, or already being purged. */
export async function queueIfDue(userId: string, now: Date): Promise<'queued' | 'skipped'> {
  const user = await getUserById(userId);
  if (!user || user.status !== 'deleted') return 'skipped';
  const availableAt = hardDeleteAvailableAt(user);
  if (!availableAt || now.getTime() < availableAt.getTime()) return 'skipped';
  try {
    await startPurge(user, systemEraseAudit(user, config().retentionDays), now);
  } catch (error) {
    // an admin's hard delete or any change to the account won the race: theirs stands
    if (error instanceof ApiError && error.statusCode === 409) return 'skipped';
    throw error;
  }
  await enqueue('purge', { user_id: userId } satisfies PurgeMessage);
  return 'queued';
}

/** The day's erasure run, from its checkpoint. `finished` false: out of time, checkpointed. */
export async function runErasure(options: ErasureOptions = {}): Promise<ErasureSummary & { finished: boolean }> {
  const now = options.now ?? currentDate();
  const timeLeft = options.timeLeftMs ?? (() => Number.POSITIVE_INFINITY);
  const day = dayOf(now);
  const summary: ErasureSummary = { considered: 0, queued: 0, skipped: 0, failed: 0 };
  const checkpointKey = keys.erasureCheckpoint(day);
  const checkpoint = (await db().send(new GetCommand({ TableName: tableName(), Key: checkpointKey, ConsistentRead: true }))).Item;
  if (checkpoint?.done) return { ...summary, finished: true };
  // deleted before this instant ⇒ retention over (the sort key starts with deleted_at; '~' sorts after '#')
  const cutoff = `${new Date(now.getTime() - config().retentionDays * DAY_MS).toISOString()}~`;
  const { indexName, partitionKey, sortKey } = INDEX.erasureDue;
  let cursor = (checkpoint?.cursor ?? undefined) as Cursor;
  do {
    if (timeLeft() < STOP_MARGIN_MS) return { ...summary, finished: false };
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: indexName,
        KeyConditionExpression: `${partitionKey} = :pk AND ${sortKey} < :cutoff`,
        ExpressionAttributeValues: { ':pk': indexPartition.erasureDue(), ':cutoff': cutoff },
        Limit: options.pageSize ?? ERASURE_PAGE,
        ExclusiveStartKey: cursor,
      }),
    );
    const before = { ...summary };
    for (const item of page.Items ?? []) {
      summary.considered += 1;
      try {
        summary[await queueIfDue(String(item.id), now)] += 1;
      } catch (error) {
        summary.failed += 1;
        logger.error('erasure failed', { user_id: item.id, error: error as Error });
      }
    }
    cursor = page.LastEvaluatedKey;
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: checkpointKey,
        UpdateExpression:
          'SET #type = :type, #cursor = :cursor, #done = :done, expires_at = :ttl ADD considered :c, queued :q, skipped :s, failed :f',
        ExpressionAttributeNames: { '#type': 'type', '#cursor': 'cursor', '#done': 'done' },
        ExpressionAttributeValues: {
          ':type': 'erasure_checkpoint',
          ':cursor': cursor ?? null,
          ':done': !cursor,
          ':ttl': ttlIn(CHECKPOINT_TTL_SECONDS, now.getTime()),
          ':c': summary.considered - before.considered,
          ':q': summary.queued - before.queued,
          ':s': summary.skipped - before.skipped,
          ':f': summary.failed - before.failed,
        },
      }),
    );
  } while (cursor);
  logger.info('erasure done', { ...summary, day });
  return { ...summary, finished: true };
}
