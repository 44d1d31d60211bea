import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { walkAccounts, type WalkPosition } from '../lib/account-walk';
import { db, tableName } from '../lib/db';
import { USER_LIST_FIELDS } from '../lib/table';
import { searchItems, type SearchItemSource } from '../lib/users';

/** Item updates in flight at once. */
const PARALLEL = 16;

export interface SearchBackfillTotals {
  /** accounts walked */
  accounts: number;
  /** search items given the filter fields */
  updated: number;
  /** search items that had them already, or are gone (renamed away, hard-deleted meanwhile) */
  current: number;
}

/**
 * Gives the search items written before they carried `status`, `verified`, `shadowed` and
 * `last_active_day` those fields (functions/lib/users.ts searchItems; docs/runbook.md "Backfill
 * the search items"). It walks every account through the usersByStatus index
 * (functions/lib/account-walk.ts: no Scan; the index holds every field an item needs) from `from`; `onPage` gets the totals and the
 * position to resume from after each page. Each item is updated only if it exists and lacks
 * `shadowed`: an item a status change or rename rewrote meanwhile is current already (the
 * writers are authoritative), and an item of a value renamed away is not created again. A rerun
 * updates nothing.
 */
export async function backfillSearchItems(
  from: WalkPosition = { status: 0 },
  onPage: (totals: SearchBackfillTotals, next: WalkPosition) => void = () => {},
  pageSize = 100,
): Promise<SearchBackfillTotals> {
  const totals: SearchBackfillTotals = { accounts: 0, updated: 0, current: 0 };
  await walkAccounts(from, USER_LIST_FIELDS, pageSize, async (accounts, next) => {
    const items = accounts.flatMap((account) => searchItems(account as unknown as SearchItemSource));
    for (let start = 0; start < items.length; start += PARALLEL) {
      const filled = await Promise.all(items.slice(start, start + PARALLEL).map(fillItem));
      filled.forEach((done) => (done ? totals.updated++ : totals.current++));
    }
    totals.accounts += accounts.length;
    onPage({ ...totals }, next);
  });
  return totals;
}

/** Adds the filter fields to one stored search item; false when it has them or is gone. */
async function fillItem(item: ReturnType<typeof searchItems>[number]): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: item.pk, sk: item.sk },
        // an activity meanwhile may have put a newer last_active_day on the item already: kept
        UpdateExpression: `SET #status = :status, verified = :verified, shadowed = :shadowed${
          item.last_active_day ? ', last_active_day = if_not_exists(last_active_day, :day)' : ''
        }`,
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(shadowed)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':status': item.status,
          ':verified': item.verified,
          ':shadowed': item.shadowed,
          ...(item.last_active_day ? { ':day': item.last_active_day } : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
