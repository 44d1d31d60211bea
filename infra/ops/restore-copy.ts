import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { forEachBounded } from '../../functions/lib/bounded';
import { afterRestorePoint, readAccountStates } from './restore-evidence';
import { accountsOf, mayOverwrite, skipReason, type AccountState, type Item, type RestoreFilter, type SkipReason } from './restore-filter';

/**
 * The copy-back of a point-in-time restore: reads the restored table page by page (a Scan: an
 * operator's one-off, never a request path) and puts the items restore-filter.ts lets through
 * into the live table. By default only items the live table lacks are put (a condition per item),
 * so a change made after the restore point (a new password, a renamed program) stands; with
 * `overwrite` every copied item replaces the live one, except a lookup and the profile of an
 * account whose credentials or access changed since (restore-filter.ts `mayOverwrite`).
 */
export type ScanPosition = Record<string, unknown> | undefined;

export interface RestoreOptions {
  restoredTable: string;
  liveTable: string;
  /** The restore point: what was removed or erased from then on stays gone. */
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
/** Account states kept between pages (a few hundred bytes each); past this they are read again. */
const ACCOUNTS_KEPT = 100_000;

/** A client for the operator's credentials and region (DYNAMODB_ENDPOINT: DynamoDB Local). */
export function restoreClient(env = process.env): DynamoDBDocumentClient {
  const endpoint = env.DYNAMODB_ENDPOINT;
  return DynamoDBDocumentClient.from(
    new DynamoDBClient(
      endpoint ? { endpoint, region: env.AWS_REGION ?? 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {},
    ),
  );
}

/**
 * What the copy leaves out that does not depend on the items (restore-filter.ts): the live audit
 * log from the restore point on. The accounts' states are read page by page (`restoreCopy`).
 */
export async function restoreFilter(
  options: RestoreOptions,
  client: DynamoDBDocumentClient,
  accounts: ReadonlyMap<string, AccountState> = new Map(),
): Promise<RestoreFilter> {
  const now = options.now ?? new Date();
  const after = await afterRestorePoint(client, options.liveTable, options.restorePoint, now);
  return { ...after, accounts, nowSeconds: Math.floor(now.getTime() / 1000) };
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
  const accounts = new Map<string, AccountState>();
  const filter = await restoreFilter(options, client, accounts);
  const tables = { live: options.liveTable, restored: options.restoredTable };
  const totals: RestoreTotals = {
    scanned: 0,
    copied: 0,
    kept: 0,
    skipped: { credential: 0, expired: 0, erased_account: 0, removed_passkey: 0, stale_lookup: 0 },
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
    if (accounts.size > ACCOUNTS_KEPT) accounts.clear();
    await readAccountStates(client, tables, items.flatMap(accountsOf), accounts);
    const copy: Item[] = [];
    for (const item of items) {
      const reason = skipReason(item, filter);
      if (reason) totals.skipped[reason] += 1;
      else copy.push(item);
    }
    await forEachBounded(copy, PUT_CONCURRENCY, async (item) => {
      totals[await putItem(client, options.liveTable, item, Boolean(options.overwrite) && mayOverwrite(item, filter))] += 1;
    });
    position = page.LastEvaluatedKey;
    onPage(totals, position);
  } while (position);
  return totals;
}
