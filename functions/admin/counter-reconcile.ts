import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, TransactWriteCommand, type TransactWriteCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { walkAccounts, type WalkPosition } from '../lib/account-walk';
import { dayOf } from '../lib/activity';
import { batchGetItems } from '../lib/batch-items';
import { forEachBounded } from '../lib/bounded';
import { currentDate } from '../lib/clock';
import { db, tableName } from '../lib/db';
import { logger } from '../lib/logger';
import { queryPages } from '../lib/query-pages';
import { failedConditions, withWriteRetries } from '../lib/retry';
import {
  type CountedEnrollment,
  type DayCounter,
  dayCounterUpdate,
  readDayCounters,
  readStatsWithFunnel,
  statsShardUpdate,
} from '../lib/stats';
import { activityPartition, keyAfter, keys, PK, ttlIn } from '../lib/table';
import { program } from '../program/content';
import {
  correctionsOf,
  DAY_FIELDS,
  dayName,
  driftOf,
  globalName,
  groupCorrections,
  type ReconcileWindow,
  residualOf,
  type Tally,
  tallyAccount,
  totalOf,
  type WalkedAccount,
} from './counter-truth';
import { lastDays } from './summary';

/**
 * The daily reconciliation of the admin counters with the accounts (docs/runbook.md "Counter
 * drift"). The writes keep the counters exact (docs/scale-writes.md), and the activity counters
 * follow the table's stream; nothing else would ever notice a counter that went wrong (a bug, a
 * lost stream batch, an item changed by hand). Once a day it:
 *  - walks every account through the usersByStatus index (every status, 100 a page, no Scan) and
 *    reads the page's enrollments in one BatchGetItem, summing what the counters should hold: every
 *    field of the STATS#GLOBAL shards (module funnel included), the last-active histogram of the
 *    last 31 days and the enroll-day buckets of the last 8 (functions/admin/counter-truth.ts);
 *  - counts the activity markers of the last 31 days (`Select: COUNT`) for DAILYACTIVE;
 *  - compares with the stored sums and records the drift of each value in the day's job item.
 * A drift is corrected only when the previous run saw the same drift of the same value: a write
 * racing the walk makes a one-off difference, a real drift repeats. The correction adds
 * truth − stored to shard 0 of the global counters or to one shard of the day, in the same
 * transaction as the record of the run, conditioned on the previous record: two runs finishing
 * at once correct once.
 *
 * Out of time (the Lambda's 15 minutes), a run stops after a page with its position and partial
 * sums checkpointed in JOB#reconcile#<day>; the next call that day (Lambda's retry of the failed
 * invocation, an operator's run) resumes there. A finished day's next call starts a new run.
 */
const PAGE_SIZE = 100;
const STOP_MARGIN_MS = 30_000;
const RUN_TTL_SECONDS = 30 * 24 * 3600;
/** What an enrollment's counters read (and its key, to match the account). */
const ENROLLMENT_FIELDS = [
  'pk',
  'percent_complete',
  'completed_count',
  'module_count',
  'enrolled_at',
  'week1_completed_at',
  'staff',
  'funnel_completed',
  'funnel_in_progress',
];
const ACCOUNT_FIELDS = ['id', 'status', 'verified', 'last_active_day'];
type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export interface ReconcileOptions {
  now?: Date;
  /** Correct a drift the previous run saw too (default). False: observe and record only, counters and the previous run's record untouched. */
  correct?: boolean;
  /**
   * Correct every drift at once, without waiting to see it twice: for a known cause, the rebuild
   * after an outage of the activity aggregator (whose lost moves left the last-active histogram
   * wrong). A write that raced this walk is then corrected by the next daily runs.
   */
  atOnce?: boolean;
  /** Milliseconds left; the run checkpoints and stops below a margin. */
  timeLeftMs?: () => number;
  pageSize?: number;
}

export interface ReconcileResult {
  /** False: out of time, checkpointed; the next call resumes. */
  finished: boolean;
  day: string;
  /** Accounts walked by the run (over its resumed calls). */
  accounts: number;
  /** truth − stored of each value that differs (flat names, functions/admin/counter-truth.ts). */
  drift: Tally;
  /** What was added to the counters. */
  corrected: Tally;
  /** Σ |drift|: the CounterDrift gauge. */
  totalDrift: number;
}

interface RunState {
  page: number;
  position: WalkPosition;
  truth: Tally;
  accounts: number;
}

/** The days a run compares, ending with `now`'s day. */
export function reconcileWindow(now: Date): ReconcileWindow {
  const month = lastDays(31, now);
  return { lastActive: month, dailyActive: month, enrollDay: month.slice(-8) };
}

/** Reconciles the counters with the accounts: one run, or its continuation after a stop. */
export async function reconcileCounters(options: ReconcileOptions = {}): Promise<ReconcileResult> {
  const now = options.now ?? currentDate();
  const correct = options.correct ?? true;
  const timeLeft = options.timeLeftMs ?? (() => Number.POSITIVE_INFINITY);
  const day = dayOf(now);
  const window = reconcileWindow(now);
  const runKey = keys.reconcileRun(day);
  const state = await startOrResume(runKey, now);

  let stopped = false;
  await walkAccounts(state.position, ACCOUNT_FIELDS, options.pageSize ?? PAGE_SIZE, async (accounts, next) => {
    const enrollments = await enrollmentsOf(accounts.map((account) => String(account.id)));
    const truth = { ...state.truth };
    for (const account of accounts) tallyAccount(truth, account as unknown as WalkedAccount, enrollments.get(String(account.id)), window);
    await checkpoint(runKey, state.page, { position: next, truth, accounts: state.accounts + accounts.length });
    Object.assign(state, { page: state.page + 1, position: next, truth, accounts: state.accounts + accounts.length });
    if (timeLeft() < STOP_MARGIN_MS) {
      stopped = true;
      return 'stop';
    }
  });
  if (stopped) {
    logger.info('counter reconciliation out of time', { day, accounts: state.accounts });
    return { finished: false, day, accounts: state.accounts, drift: {}, corrected: {}, totalDrift: 0 };
  }

  const truth = { ...state.truth, ...(await dailyActiveTruth(window.dailyActive)) };
  const drift = driftOf(truth, await storedTally(window));
  const corrected = correct
    ? await finishCorrecting(runKey, state.page, drift, now, options.atOnce ?? false)
    : await finish(runKey, state.page, drift, {}, []);
  const result = { finished: true, day, accounts: state.accounts, drift, corrected, totalDrift: totalOf(drift) };
  logger.info('counter reconciliation', { ...result, drift_values: Object.keys(drift).length });
  return result;
}

/** The day's unfinished run, or a new one (a finished day starts again). */
async function startOrResume(runKey: Record<string, string>, now: Date): Promise<RunState> {
  const item = (await db().send(new GetCommand({ TableName: tableName(), Key: runKey, ConsistentRead: true }))).Item;
  if (item && !item.done) {
    return {
      page: Number(item.page),
      position: item.position as WalkPosition,
      truth: item.truth as Tally,
      accounts: Number(item.accounts),
    };
  }
  const fresh: RunState = { page: 0, position: { status: 0 }, truth: {}, accounts: 0 };
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...runKey,
          type: 'reconcile_run',
          ...fresh,
          done: false,
          started_at: now.toISOString(),
          expires_at: ttlIn(RUN_TTL_SECONDS, now.getTime()),
        },
        // no other run started meanwhile
        ConditionExpression: 'attribute_not_exists(pk) OR done = :done',
        ExpressionAttributeValues: { ':done': true },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException)
      throw new Error('another counter reconciliation started meanwhile: run again to resume it');
    throw error;
  }
  return fresh;
}

/** The checkpoint after a page; refused when another call walked on from the same page (only one walks). */
async function checkpoint(runKey: Record<string, string>, page: number, next: Omit<RunState, 'page'>) {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: runKey,
        UpdateExpression: 'SET #position = :position, truth = :truth, accounts = :accounts, page = :next',
        ConditionExpression: 'page = :page',
        ExpressionAttributeNames: { '#position': 'position' },
        ExpressionAttributeValues: {
          ':position': next.position,
          ':truth': next.truth,
          ':accounts': next.accounts,
          ':page': page,
          ':next': page + 1,
        },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new Error('another counter reconciliation is walking the accounts');
    throw error;
  }
}

/** The page's enrollments by user id (one BatchGetItem of up to 100 keys). */
async function enrollmentsOf(userIds: string[]): Promise<Map<string, CountedEnrollment>> {
  const programId = program().id;
  const found = await batchGetItems(
    userIds.map((id) => keys.enrollment(id, programId)),
    { projection: ENROLLMENT_FIELDS },
  );
  return new Map(found.map((item) => [keyAfter(PK.user, String(item.pk)), item as unknown as CountedEnrollment]));
}

/** DAILYACTIVE's truth: the activity markers of each day, counted (paged `Select: COUNT` queries). */
async function dailyActiveTruth(days: readonly string[]): Promise<Tally> {
  const tally: Tally = {};
  await forEachBounded(days, 8, async (day) => {
    let count = 0;
    for await (const page of queryPages({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': activityPartition(day) },
      Select: 'COUNT',
    }))
      count += page.Count ?? 0;
    if (count) tally[dayName('DAILYACTIVE', day, 'count')] = count;
  });
  return tally;
}

/** What the counters hold now: the global shards' sums and the compared fields of the window's day counters. */
async function storedTally(window: ReconcileWindow): Promise<Tally> {
  const span = (days: readonly string[]) => [days[0], days[days.length - 1]] as const;
  const counters: Array<[DayCounter, readonly string[]]> = [
    ['LASTACTIVE', window.lastActive],
    ['DAILYACTIVE', window.dailyActive],
    ['ENROLLDAY', window.enrollDay],
  ];
  const [{ stats, funnel }, ...perCounter] = await Promise.all([
    readStatsWithFunnel(),
    ...counters.map(([counter, days]) => readDayCounters(counter, ...span(days))),
  ]);
  const tally: Tally = {};
  for (const [field, value] of [...Object.entries(stats), ...funnel]) if (value) tally[globalName(field)] = value;
  counters.forEach(([counter], index) => {
    for (const [day, fields] of perCounter[index])
      for (const field of DAY_FIELDS[counter]) if (fields[field]) tally[dayName(counter, day, field)] = fields[field];
  });
  return tally;
}

/**
 * Corrects what the previous run saw identically (everything it saw, `atOnce`), and records this run as the previous one for
 * the next, in one transaction conditioned on that record: a run finishing meanwhile makes this one
 * fail rather than correct twice.
 */
async function finishCorrecting(runKey: Record<string, string>, page: number, drift: Tally, now: Date, atOnce: boolean): Promise<Tally> {
  const last = (await db().send(new GetCommand({ TableName: tableName(), Key: keys.reconcileLast(), ConsistentRead: true }))).Item;
  const corrected = atOnce ? drift : correctionsOf(drift, last?.drift as Tally | undefined);
  const version = Number(last?.version ?? 0);
  const { global, days } = groupCorrections(corrected);
  const globalCorrection = statsShardUpdate(0, global);
  const writes: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.reconcileLast(),
          type: 'reconcile_last',
          drift: residualOf(drift, corrected),
          day: dayOf(now),
          finished_at: now.toISOString(),
          version: version + 1,
        },
        ConditionExpression: last ? 'version = :version' : 'attribute_not_exists(pk)',
        ...(last ? { ExpressionAttributeValues: { ':version': version } } : {}),
      },
    },
    ...(globalCorrection ? [globalCorrection] : []),
    ...days.flatMap(({ counter, day, deltas }) => dayCounterUpdate(counter, day, deltas) ?? []),
  ];
  return finish(runKey, page, drift, corrected, writes);
}

/** Marks the run done with what it saw and corrected, with `writes` in the same transaction. */
async function finish(
  runKey: Record<string, string>,
  page: number,
  drift: Tally,
  corrected: Tally,
  writes: TransactItem[],
): Promise<Tally> {
  const done = {
    Update: {
      TableName: tableName(),
      Key: runKey,
      UpdateExpression: 'SET done = :done, drift = :drift, corrected = :corrected, finished_at = :at REMOVE truth, #position',
      ConditionExpression: 'page = :page',
      ExpressionAttributeNames: { '#position': 'position' },
      ExpressionAttributeValues: {
        ':done': true,
        ':drift': drift,
        ':corrected': corrected,
        ':at': currentDate().toISOString(),
        ':page': page,
      },
    },
  };
  try {
    await withWriteRetries(() => db().send(new TransactWriteCommand({ TransactItems: [done, ...writes] })));
  } catch (error) {
    if (failedConditions(error).length)
      throw new Error('another counter reconciliation finished meanwhile: nothing was corrected by this one');
    throw error;
  }
  return corrected;
}
