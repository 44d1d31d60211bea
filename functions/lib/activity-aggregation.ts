import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { forEachBounded } from './bounded';
import { db, tableName } from './db';
import { failedConditions, withWriteRetries } from './retry';
import { imageText, type StreamImage } from './stream-image';
import { dayCounterUpdate, type DayCounter, lastActiveDeltas } from './stats';
import { keyAfter, keys, PK, PROFILE_SK } from './table';
import { searchItemKeys, type SearchField } from './users';

/**
 * The activity aggregator (docs/scale-writes.md "Activity off the request path"): what a
 * learner's first activity of a day counts, written from the table's stream instead of the
 * request. recordActivity (functions/lib/activity.ts) moves the account's `last_active_day`
 * forward; each such move in a stream batch becomes
 *  - the day's activity marker ACTIVITY#<day>/USER#<id> (who was active which day), which is
 *    also the move's idempotency marker: it is put with attribute_not_exists in the same
 *    transaction as the counters, so a batch Lambda delivers again (a retry, a bisected half)
 *    counts each move once;
 *  - one ADD per counter item for the whole batch: DAILYACTIVE of each day (distinct learners
 *    active that day) and LASTACTIVE (accounts per last-active day, with the locked / deleted
 *    among them) of each day moved to or from, each on one random shard of its day;
 *  - `last_active_day` on the account's admin search items, each only if it exists and only
 *    forward (idempotent, so written again on a retry).
 * A move of an account whose reminders are paused also resumes them (functions/jobs/activity-stream.ts).
 */
/** One learner's activity on one day: its marker ACTIVITY#<day>/USER#<id>. */
export interface ActivityDay {
  userId: string;
  day: string;
}

export interface ActivityMove extends ActivityDay {
  previous?: string;
  status: string;
  searched: Pick<Record<SearchField, string>, SearchField>;
  /** The account's reminders are paused: this activity resumes them. */
  remindersPaused: boolean;
}

/** Moves per transaction: each adds one marker and at most three counter items (TransactWriteItems takes 100). */
const MOVES_PER_TRANSACTION = 25;
const ACTIVITY_TTL_SECONDS = 400 * 24 * 3600;

/** The accounts' `last_active_day` moves forward among stream records (every other record is ignored). */
export function activityMoves(records: readonly DynamoDBRecord[]): ActivityMove[] {
  const moves: ActivityMove[] = [];
  for (const record of records) {
    if (record.eventName !== 'MODIFY') continue;
    const after = record.dynamodb?.NewImage as StreamImage;
    const before = record.dynamodb?.OldImage as StreamImage;
    const pk = imageText(after, 'pk');
    if (imageText(after, 'sk') !== PROFILE_SK || !pk.startsWith(PK.user)) continue;
    const day = imageText(after, 'last_active_day');
    const previous = imageText(before, 'last_active_day') || undefined;
    if (!day || (previous && previous >= day)) continue;
    moves.push({
      userId: keyAfter(PK.user, pk),
      day,
      previous,
      status: imageText(after, 'status') || 'active',
      searched: { email: imageText(after, 'email'), first_name: imageText(after, 'first_name'), last_name: imageText(after, 'last_name') },
      remindersPaused: Boolean(imageText(after, 'reminders_paused_at')),
    });
  }
  return moves;
}

/** Applies the moves (idempotent: a move whose marker exists was counted before). Returns how many were counted now. */
export async function applyActivityMoves(moves: readonly ActivityMove[]): Promise<number> {
  const unique = uniqueDays(moves);
  const counted = await markOnce(unique, moveCounters);
  await forEachBounded(unique, 8, (move) => moveSearchItemsForward(searchItemKeys({ id: move.userId, ...move.searched }), move.day));
  return counted;
}

/**
 * Puts the markers of learners' activity days, each only if absent, with +1 on DAILYACTIVE of
 * the day for each marker put now, and nothing else (the rebuild after an outage of the stream,
 * functions/admin/derived-data-rebuild.ts: the last-active histogram is reconciled from the
 * accounts instead). Idempotent as the stream's moves are. Returns how many markers were new.
 */
export async function markActivityDays(days: readonly ActivityDay[]): Promise<number> {
  return markOnce(uniqueDays(days), (marked) => summedDayCounters(marked.map((day) => ['DAILYACTIVE', day.day, { count: 1 }])));
}

const uniqueDays = <T extends ActivityDay>(days: readonly T[]): T[] => [
  ...new Map(days.map((day) => [`${day.day}#${day.userId}`, day])).values(),
];

/** Marks the days, MOVES_PER_TRANSACTION a transaction, each chunk with the counters `counters` gives for it. */
async function markOnce<T extends ActivityDay>(days: readonly T[], counters: (marked: readonly T[]) => TransactItem[]): Promise<number> {
  let counted = 0;
  for (let start = 0; start < days.length; start += MOVES_PER_TRANSACTION) {
    counted += await countOnce(days.slice(start, start + MOVES_PER_TRANSACTION), counters);
  }
  return counted;
}

type TransactItem = NonNullable<ReturnType<typeof dayCounterUpdate>>;

/** One transaction for a chunk: the markers (each only if new) and the counters' sums; days already marked are left out and the rest written again. */
async function countOnce<T extends ActivityDay>(chunk: T[], counters: (marked: readonly T[]) => TransactItem[]): Promise<number> {
  let pending = chunk;
  while (pending.length) {
    try {
      const days = pending;
      await withWriteRetries(() => db().send(new TransactWriteCommand({ TransactItems: [...days.map(markerPut), ...counters(days)] })));
      return days.length;
    } catch (error) {
      const marked = new Set(failedConditions(error));
      if (!marked.size) throw error;
      pending = pending.filter((_, index) => !marked.has(index));
    }
  }
  return 0;
}

function markerPut(day: ActivityDay) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.activity(day.day, day.userId),
        type: 'activity',
        user_id: day.userId,
        day: day.day,
        // 400 days from the day itself: a redelivered move writes the same item
        expires_at: Math.floor(Date.parse(`${day.day}T00:00:00Z`) / 1000) + ACTIVITY_TTL_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** What a batch of moves counts: DAILYACTIVE of each day, LASTACTIVE into the new day and out of the previous one. */
const moveCounters = (moves: readonly ActivityMove[]) =>
  summedDayCounters(
    moves.flatMap((move): DayDeltas => [
      ['DAILYACTIVE', move.day, { count: 1 }],
      ['LASTACTIVE', move.day, lastActiveDeltas(move.status, 1)],
      ...(move.previous ? ([['LASTACTIVE', move.previous, lastActiveDeltas(move.status, -1)]] satisfies DayDeltas) : []),
    ]),
  );

type DayDeltas = Array<[DayCounter, string, Record<string, number>]>;

/** Counter deltas summed per counter and day: one ADD per item. */
function summedDayCounters(deltas: DayDeltas): TransactItem[] {
  const sums = new Map<string, Record<string, number>>();
  for (const [counter, day, fields] of deltas) {
    const sum = sums.get(`${counter}|${day}`) ?? {};
    for (const [field, delta] of Object.entries(fields)) sum[field] = (sum[field] ?? 0) + delta;
    sums.set(`${counter}|${day}`, sum);
  }
  return [...sums].flatMap(([key, sum]) => {
    const [counter, day] = key.split('|') as [DayCounter, string];
    return dayCounterUpdate(counter, day, sum) ?? [];
  });
}

/**
 * Sets `last_active_day` on search items (an account's, `searchItemKeys`): only onto an existing
 * item, only forward, so a retry or a rebuild writes nothing older.
 */
export async function moveSearchItemsForward(searchKeys: ReadonlyArray<Record<string, string>>, day: string): Promise<void> {
  await forEachBounded(searchKeys, 3, async (key) => {
    try {
      await withWriteRetries(() =>
        db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: key,
            UpdateExpression: 'SET last_active_day = :day',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(last_active_day) OR last_active_day < :day)',
            ExpressionAttributeValues: { ':day': day },
          }),
        ),
      );
    } catch (error) {
      // gone (renamed or erased meanwhile: the new items copy the account's day) or already as new
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    }
  });
}

/**
 * What the aggregator Lambda runs for one stream batch; `onPaused` gets each account whose
 * reminders are paused and that was active now (the domain resumes them).
 */
export async function aggregateActivity(
  records: readonly DynamoDBRecord[],
  onPaused?: (userId: string) => Promise<unknown>,
): Promise<{ moves: number; counted: number }> {
  const moves = activityMoves(records);
  const counted = await applyActivityMoves(moves);
  if (onPaused) {
    const paused = [...new Set(moves.filter((move) => move.remindersPaused).map((move) => move.userId))];
    // idempotent: a batch delivered again resumes again
    await forEachBounded(paused, 8, async (userId) => {
      await withWriteRetries(() => onPaused(userId));
    });
  }
  return { moves: moves.length, counted };
}
