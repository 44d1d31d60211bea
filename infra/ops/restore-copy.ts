import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, ScanCommand, paginateQuery, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { auditEntryKey } from '../../functions/lib/audit';
import { auditActionShards } from '../../functions/lib/audit-actions';
import { config } from '../../functions/lib/config';
import { forEachBounded } from '../../functions/lib/bounded';
import { AUDIT_SHARDS, auditRefPartition, INDEX, indexQuery, indexPartition, KEY } from '../../functions/lib/table';
import {
  HARD_DELETE_ACTIONS,
  PASSKEY_REMOVED_ACTION,
  skipReason,
  type RemovedPasskey,
  type RestoreFilter,
  type SkipReason,
} from './restore-filter';

/**
 * The copy-back of a point-in-time restore: reads the restored table page by page (a Scan: an
 * operator's one-off, never a request path) and puts the items restore-filter.ts lets through
 * into the live table. By default only items the live table lacks are put (a condition per item),
 * so a change made after the restore point (a new password, a renamed program) stands; with
 * `overwrite` every copied item replaces the live one.
 */
type Item = Record<string, unknown> & { pk: string; sk: string };
export type ScanPosition = Record<string, unknown> | undefined;

export interface RestoreOptions {
  restoredTable: string;
  liveTable: string;
  /** The restore point: passkeys removed from then on stay removed. */
  restorePoint: Date;
  overwrite?: boolean;
  /** Where a previous run stopped (its printed resume token). */
  startAfter?: ScanPosition;
  /** A parallel scan's part (run one process per segment). */
  segment?: { index: number; total: number };
  pageSize?: number;
  client?: DynamoDBDocumentClient;
  now?: Date;
}

export interface RestoreTotals {
  scanned: number;
  copied: number;
  /** Already in the live table (not overwritten). */
  kept: number;
  skipped: Record<SkipReason, number>;
}

/** Puts at once: enough to hide round trips, few enough to stay well inside the table's burst. */
const PUT_CONCURRENCY = 8;

/** A client for the operator's credentials and region (DYNAMODB_ENDPOINT: DynamoDB Local). */
export function restoreClient(env = process.env): DynamoDBDocumentClient {
  const endpoint = env.DYNAMODB_ENDPOINT;
  return DynamoDBDocumentClient.from(
    new DynamoDBClient(
      endpoint ? { endpoint, region: env.AWS_REGION ?? 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {},
    ),
  );
}

/** The months (yyyy-mm) from `from`'s to `to`'s, newest first. */
function monthsBetween(from: Date, to: Date): string[] {
  const months: string[] = [];
  for (
    let at = new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth(), 1));
    at.getTime() >= Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), 1);
    at.setUTCMonth(at.getUTCMonth() - 1)
  )
    months.push(at.toISOString().slice(0, 7));
  return months;
}

async function queryAll(client: DynamoDBDocumentClient, table: string, input: Omit<QueryCommandInput, 'TableName'>): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of paginateQuery({ client }, { TableName: table, ...input })) items.push(...((page.Items ?? []) as Item[]));
  return items;
}

/** A key condition from this sort key on (an ISO time starts every audit sort key). */
const sortKeyFrom = (input: Omit<QueryCommandInput, 'TableName'>, sortKey: string, from: string | undefined) =>
  from
    ? {
        ...input,
        KeyConditionExpression: `${input.KeyConditionExpression} AND #isk >= :from`,
        ExpressionAttributeNames: { ...input.ExpressionAttributeNames, '#isk': sortKey },
        ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ':from': from },
      }
    : input;

/**
 * The entries of an action from `from` on (else over the audit retention) up to `now`: its
 * reference partitions month by month, their entries read by key, and the legacy action index
 * (entries `npm run migrate` has not converted).
 */
async function auditEntries(client: DynamoDBDocumentClient, table: string, action: string, now: Date, from?: string): Promise<Item[]> {
  const start = from ? new Date(from) : new Date(now.getTime() - config().auditRetentionDays * 24 * 3600 * 1000);
  const partitions = monthsBetween(start, now).flatMap((month) =>
    Array.from({ length: auditActionShards(action, AUDIT_SHARDS) }, (_, shard) => auditRefPartition.action(action, month, shard)),
  );
  const refs = (
    await Promise.all(
      partitions.map((partition) =>
        queryAll(
          client,
          table,
          sortKeyFrom(
            {
              KeyConditionExpression: '#ipk = :ipk',
              ExpressionAttributeNames: { '#ipk': KEY.partitionKey },
              ExpressionAttributeValues: { ':ipk': partition },
            },
            KEY.sortKey,
            from,
          ),
        ),
      ),
    )
  ).flat();
  const entries: Item[] = [];
  await forEachBounded(refs, GET_CONCURRENCY, async (ref) => {
    const entry = (await client.send(new GetCommand({ TableName: table, Key: auditEntryKey(ref) }))).Item as Item | undefined;
    if (entry) entries.push(entry);
  });
  const legacy = await queryAll(
    client,
    table,
    sortKeyFrom(indexQuery('auditByAction', indexPartition.auditByAction(action)), INDEX.auditByAction.sortKey, from),
  );
  return [...entries, ...legacy];
}

/** Entries read by key at once (an operator's lookup of the few hard deletes and removed passkeys). */
const GET_CONCURRENCY = 8;

/**
 * What the copy leaves out, read from the audit log of both tables: accounts hard-deleted (in
 * the live log after the restore point, in the restored one before it: a purge still running at
 * the restore point) and passkeys removed after the restore point.
 */
export async function restoreFilter(options: RestoreOptions, client: DynamoDBDocumentClient): Promise<RestoreFilter> {
  const now = options.now ?? new Date();
  const erased = new Set<string>();
  for (const table of [options.liveTable, options.restoredTable])
    for (const action of HARD_DELETE_ACTIONS)
      for (const entry of await auditEntries(client, table, action, now)) erased.add(String(entry.entity_id));
  const removedPasskeys: RemovedPasskey[] = (
    await auditEntries(client, options.liveTable, PASSKEY_REMOVED_ACTION, now, options.restorePoint.toISOString())
  ).flatMap((entry) => {
    const hashPrefix = (entry.old_values as { passkey?: unknown } | null)?.passkey;
    return typeof hashPrefix === 'string' && hashPrefix ? [{ userId: String(entry.entity_id), hashPrefix }] : [];
  });
  return { erased, removedPasskeys, nowSeconds: Math.floor(now.getTime() / 1000) };
}

async function putItem(client: DynamoDBDocumentClient, table: string, item: Item, overwrite: boolean): Promise<'copied' | 'kept'> {
  try {
    await client.send(
      new PutCommand({ TableName: table, Item: item, ...(overwrite ? {} : { ConditionExpression: 'attribute_not_exists(pk)' }) }),
    );
    return 'copied';
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return 'kept';
    throw error;
  }
}

/**
 * Copies the restored table's items into the live one; `onPage` gets the running totals and the
 * position to resume from after each page (undefined once the scan is complete).
 */
export async function restoreCopy(
  options: RestoreOptions,
  onPage: (totals: RestoreTotals, next: ScanPosition) => void = () => {},
): Promise<RestoreTotals> {
  const client = options.client ?? restoreClient();
  const filter = await restoreFilter(options, client);
  const totals: RestoreTotals = {
    scanned: 0,
    copied: 0,
    kept: 0,
    skipped: { credential: 0, expired: 0, erased_account: 0, removed_passkey: 0 },
  };
  let position = options.startAfter;
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: options.restoredTable,
        Limit: options.pageSize ?? 100,
        ConsistentRead: true,
        ...(position ? { ExclusiveStartKey: position } : {}),
        ...(options.segment ? { Segment: options.segment.index, TotalSegments: options.segment.total } : {}),
      }),
    );
    const items = (page.Items ?? []) as Item[];
    totals.scanned += items.length;
    const copy: Item[] = [];
    for (const item of items) {
      const reason = skipReason(item, filter);
      if (reason) totals.skipped[reason] += 1;
      else copy.push(item);
    }
    await forEachBounded(copy, PUT_CONCURRENCY, async (item) => {
      totals[await putItem(client, options.liveTable, item, options.overwrite ?? false)] += 1;
    });
    position = page.LastEvaluatedKey;
    onPage(totals, position);
  } while (position);
  return totals;
}
