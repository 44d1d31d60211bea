import { BatchGetCommand, BatchWriteCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { forEachBounded } from './bounded';
import { db, tableName } from './db';
import { waitBeforeRetry } from './backoff';

/**
 * BatchGetItem and BatchWriteItem with what DynamoDB asks of their callers: requests split at its
 * limits (100 keys, 25 writes) and the keys or items it leaves unprocessed (throttling, a 16 MB
 * answer) sent again with back-off. A caller never sees a partial answer: it gets every item, or
 * an error once the tries run out.
 */

export type ItemKey = Record<string, unknown>;
export type Item = Record<string, unknown>;
export type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

const GET_LIMIT = 100;
const WRITE_LIMIT = 25;
/** Sends of one chunk in all: the first and seven retries (about 6 s of back-off at most). */
const ATTEMPTS = 8;

export interface BatchGetOptions {
  /** Attribute names to read (sent through ExpressionAttributeNames: reserved words are fine). */
  projection?: readonly string[];
  consistentRead?: boolean;
}

/** Every item found for `keyList` (chunks of 100 sent at once; order not kept, missing keys left out). */
export async function batchGetItems(keyList: readonly ItemKey[], options: BatchGetOptions = {}): Promise<Item[]> {
  const { projection, consistentRead } = options;
  const read = {
    ...(projection?.length
      ? {
          ProjectionExpression: projection.map((_, i) => `#p${i}`).join(', '),
          ExpressionAttributeNames: Object.fromEntries(projection.map((name, i) => [`#p${i}`, name])),
        }
      : {}),
    ...(consistentRead ? { ConsistentRead: true } : {}),
  };
  const chunks = chunked(keyList, GET_LIMIT).map(async (chunk) => {
    const found: Item[] = [];
    await untilProcessed(chunk, 'BatchGetItem', async (pending) => {
      const result = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ...read } } }));
      found.push(...(result.Responses?.[tableName()] ?? []));
      return result.UnprocessedKeys?.[tableName()]?.Keys ?? [];
    });
    return found;
  });
  return (await Promise.all(chunks)).flat();
}

/** Puts and deletes in chunks of 25, `concurrency` chunks at once. */
export async function batchWriteItems(requests: readonly WriteRequest[], concurrency = 4): Promise<void> {
  await forEachBounded(chunked(requests, WRITE_LIMIT), concurrency, (chunk) =>
    untilProcessed(chunk, 'BatchWriteItem', async (pending) => {
      const result = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      return result.UnprocessedItems?.[tableName()] ?? [];
    }),
  );
}

/** Deletes the items at `keyList` (a missing item is no error). */
export async function batchDeleteItems(keyList: readonly ItemKey[], concurrency = 4): Promise<void> {
  await batchWriteItems(
    keyList.map((key) => ({ DeleteRequest: { Key: key } })),
    concurrency,
  );
}

/** Sends `pending` until nothing is left unprocessed, backing off between sends. */
async function untilProcessed<T>(pending: T[], operation: string, send: (pending: T[]) => Promise<T[]>): Promise<void> {
  for (let attempt = 0; pending.length; attempt++) {
    if (attempt >= ATTEMPTS) throw new Error(`${operation} left ${pending.length} requests unprocessed`);
    if (attempt) await waitBeforeRetry(attempt - 1);
    pending = await send(pending);
  }
}

function chunked<T>(list: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < list.length; start += size) chunks.push(list.slice(start, start + size));
  return chunks;
}
