import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, ScanCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { forEachBounded } from '../../functions/lib/bounded';
import { INDEX, indexQuery, indexPartition } from '../../functions/lib/table';
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

async function auditEntries(client: DynamoDBDocumentClient, table: string, action: string, from?: string): Promise<Item[]> {
  const query = indexQuery('auditByAction', indexPartition.auditByAction(action));
  const input = from
    ? {
        ...query,
        KeyConditionExpression: `${query.KeyConditionExpression} AND #isk >= :from`,
        ExpressionAttributeNames: { ...query.ExpressionAttributeNames, '#isk': INDEX.auditByAction.sortKey },
        ExpressionAttributeValues: { ...query.ExpressionAttributeValues, ':from': from },
      }
    : query;
  const items: Item[] = [];
  for await (const page of paginateQuery({ client }, { TableName: table, ...input })) items.push(...((page.Items ?? []) as Item[]));
  return items;
}

/**
 * What the copy leaves out, read from the audit log of both tables: accounts hard-deleted (in
 * the live log after the restore point, in the restored one before it: a purge still running at
 * the restore point) and passkeys removed after the restore point.
 */
export async function restoreFilter(options: RestoreOptions, client: DynamoDBDocumentClient): Promise<RestoreFilter> {
  const erased = new Set<string>();
  for (const table of [options.liveTable, options.restoredTable])
    for (const action of HARD_DELETE_ACTIONS)
      for (const entry of await auditEntries(client, table, action)) erased.add(String(entry.entity_id));
  const removedPasskeys: RemovedPasskey[] = (
    await auditEntries(client, options.liveTable, PASSKEY_REMOVED_ACTION, options.restorePoint.toISOString())
  ).flatMap((entry) => {
    const hashPrefix = (entry.old_values as { passkey?: unknown } | null)?.passkey;
    return typeof hashPrefix === 'string' && hashPrefix ? [{ userId: String(entry.entity_id), hashPrefix }] : [];
  });
  return { erased, removedPasskeys, nowSeconds: Math.floor((options.now ?? new Date()).getTime() / 1000) };
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
