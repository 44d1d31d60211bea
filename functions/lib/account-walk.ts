import { queryPages } from './query-pages';
import { indexPartition, indexQuery } from './table';
import type { UserStatus } from './user-record';

/** Where a walk over every account stands: a usersByStatus partition and the key to go on from. */
export interface WalkPosition {
  /** index into WALK_STATUSES */
  status: number;
  key?: Record<string, unknown>;
}
/** The usersByStatus partitions: together, every account. */
export const WALK_STATUSES: readonly UserStatus[] = ['active', 'locked', 'deleted'];

/**
 * Walks every account through the usersByStatus index (one partition per status, `pageSize` a
 * page, no Scan) from `from`, for operator backfills and the jobs that visit every account.
 * `onPage` handles a page's accounts (the index's list fields that `projection` names) and gets
 * the position to resume from after it: a backfill prints it as a resume token, a job keeps it in
 * its checkpoint. `onPage` answering 'stop' ends the walk there (a job out of time).
 */
export async function walkAccounts(
  from: WalkPosition,
  projection: readonly string[],
  pageSize: number,
  onPage: (accounts: Record<string, unknown>[], next: WalkPosition) => Promise<void | 'stop'>,
): Promise<void> {
  for (let s = from.status; s < WALK_STATUSES.length; s++) {
    const query = indexQuery('usersByStatus', indexPartition.usersByStatus(WALK_STATUSES[s]));
    const pages = queryPages({
      ...query,
      // through names: `status` is a reserved word
      ExpressionAttributeNames: {
        ...query.ExpressionAttributeNames,
        ...Object.fromEntries(projection.map((name, i) => [`#p${i}`, name])),
      },
      ProjectionExpression: projection.map((_, i) => `#p${i}`).join(', '),
      Limit: pageSize,
      ExclusiveStartKey: s === from.status ? from.key : undefined,
    });
    for await (const page of pages) {
      const next = page.LastEvaluatedKey;
      if ((await onPage(page.Items ?? [], { status: next ? s : s + 1, key: next })) === 'stop') return;
    }
  }
}
