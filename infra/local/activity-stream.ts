import type { DynamoDBRecord } from 'aws-lambda';
import { runAs } from './iam/twin';

/**
 * The local stand-in for the stream event source (infra/constructs/activity-stream.ts): reads
 * the table's stream from DynamoDB Local, shard by shard from its start, and hands each batch
 * to the same aggregator handler the Lambda runs, as the aggregator's IAM role. The runtime polls
 * it every second (`pollActivityStream`); tests call `drainActivityStream` where they check the
 * totals, which returns once every record written so far has been aggregated.
 *
 * The DynamoDB Streams API is four JSON calls on DynamoDB Local's own endpoint (the SDK's streams
 * client is not published at the version the rest of the SDK is pinned to).
 */
const BATCH = 100;

interface StreamShard {
  ShardId: string;
  SequenceNumberRange?: { EndingSequenceNumber?: string };
}

/**
 * Where each shard of a stream stands: its next iterator (null: a closed shard read to its end),
 * and the last record handed to the handler, where a new iterator starts.
 */
interface ShardPosition {
  iterator: string | null;
  after?: string;
}
const positions = new Map<string, Map<string, ShardPosition>>();
let draining: Promise<number> = Promise.resolve(0);

async function call<T>(target: string, body: Record<string, unknown>): Promise<T> {
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('DYNAMODB_ENDPOINT is not set: the local stream is read from DynamoDB Local');
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': target,
      // DynamoDB Local checks the header's form, not its signature
      authorization: 'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=local',
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${target} failed (${response.status}): ${text}`);
  return JSON.parse(text) as T;
}

const streams = (operation: string, body: Record<string, unknown>) => call(`DynamoDBStreams_20120810.${operation}`, body);

/**
 * The stream of each table, asked for once: DynamoDB Local's DescribeTable counts the table's
 * items and bytes by reading all of them (about half a second at 20,000 items), which a poll every
 * second, or a drain before every audit read of a test, would pay each time.
 */
const streamArns = new Map<string, string>();

async function streamArn(tableName: string): Promise<string | undefined> {
  const known = streamArns.get(tableName);
  if (known) return known;
  const { Table } = await call<{ Table?: { LatestStreamArn?: string } }>('DynamoDB_20120810.DescribeTable', { TableName: tableName });
  if (Table?.LatestStreamArn) streamArns.set(tableName, Table.LatestStreamArn);
  return Table?.LatestStreamArn;
}

/** A new iterator of a shard: after the last record handed over, or from the shard's start. */
async function shardIterator(arn: string, shardId: string, after: string | undefined): Promise<string> {
  const { ShardIterator } = (await streams('GetShardIterator', {
    StreamArn: arn,
    ShardId: shardId,
    ...(after ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after } : { ShardIteratorType: 'TRIM_HORIZON' }),
  })) as { ShardIterator: string };
  return ShardIterator;
}

/**
 * Reads every shard of the table's stream to its current end, each batch through the aggregator
 * (`deliver` false: to no one). Returns the records read.
 */
async function drainOnce(tableName: string, deliver: boolean): Promise<number> {
  const arn = await streamArn(tableName);
  if (!arn) return 0;
  const shardPositions = positions.get(arn) ?? new Map<string, ShardPosition>();
  positions.set(arn, shardPositions);
  let described: { StreamDescription: { Shards?: StreamShard[] } };
  try {
    described = (await streams('DescribeStream', { StreamArn: arn })) as typeof described;
  } catch (error) {
    // the table was made again since (a new stream): ask for it next time
    streamArns.delete(tableName);
    throw error;
  }
  const { StreamDescription } = described;
  const { handler } = await import('../../functions/jobs/activity-stream');
  let read = 0;
  for (const shard of StreamDescription.Shards ?? []) {
    const position = shardPositions.get(shard.ShardId) ?? { iterator: await shardIterator(arn, shard.ShardId, undefined) };
    shardPositions.set(shard.ShardId, position);
    let renewed = false;
    while (position.iterator) {
      let page: { Records?: DynamoDBRecord[]; NextShardIterator?: string };
      try {
        page = (await streams('GetRecords', { ShardIterator: position.iterator, Limit: BATCH })) as typeof page;
      } catch (error) {
        // An iterator lives 15 minutes, and DynamoDB Local sometimes refuses a held one as past
        // the shard's oldest record: start once again after the last record handed over (as
        // Lambda's event source does from its checkpoint), or from the start; the handler is idempotent.
        if (renewed || !/ExpiredIteratorException|TrimmedDataAccessException/.test((error as Error).message)) throw error;
        position.iterator = await shardIterator(arn, shard.ShardId, position.after);
        renewed = true;
        continue;
      }
      const { Records = [], NextShardIterator } = page;
      // a failing batch throws before the position moves on: the next drain reads it again (Lambda retries it)
      if (Records.length && deliver) await runAs('activityStream', () => handler({ Records }));
      position.after = Records.at(-1)?.dynamodb?.SequenceNumber ?? position.after;
      position.iterator = NextShardIterator ?? null;
      read += Records.length;
      if (!Records.length) break;
    }
  }
  return read;
}

/** Reads the stream to its end, one drain at a time. */
function queuedDrain(tableName: string, deliver: boolean): Promise<number> {
  const next = draining.catch(() => 0).then(() => drainOnce(tableName, deliver));
  draining = next;
  return next;
}

/** Aggregates every stream record written so far (one drain at a time). Returns how many records it read. */
export const drainActivityStream = (tableName = process.env.TABLE_NAME ?? ''): Promise<number> => queuedDrain(tableName, true);

/**
 * Passes over every stream record written so far without aggregating it: what an outage of the
 * aggregator longer than the stream's 24 hours loses (the rebuild's tests and the simulation's
 * outage, test/soak; docs/runbook.md "Rebuilding derived data"). Returns how many records were lost.
 */
export const discardActivityStream = (tableName = process.env.TABLE_NAME ?? ''): Promise<number> => queuedDrain(tableName, false);

/** Polls the stream every `intervalMs` until the returned stop is called (the local runtime). */
export function pollActivityStream(log: (line: string) => void, intervalMs = 1000): () => Promise<void> {
  let stopped = false;
  const tick = async () => {
    if (stopped) return;
    try {
      await drainActivityStream();
    } catch (error) {
      log(`Activity stream batch failed (read again next time): ${(error as Error).message}`);
    }
    if (!stopped) timer = setTimeout(() => void tick(), intervalMs);
  };
  let timer = setTimeout(() => void tick(), intervalMs);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await draining.catch(() => undefined);
  };
}
