import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db';
import { withWriteRetries } from '../lib/retry';
import { INDEX, indexPartition } from '../lib/table';
import { getUserById } from '../lib/users';
import { program } from './content';
import { enrollmentTransition } from './learner-program';
import { deriveProgress } from './progress';
import { getEnrollment, listProgress } from './store';

/**
 * Counts one enrollment written before the module funnel existed (functions/lib/funnel.ts):
 * the same version-guarded transition as a progress write, so it is counted exactly once even
 * if the learner acts at the same moment (whoever loses the guard finds it counted). Used by
 * infra/ops/backfill-funnel.ts; the learner's own next visit does the same (learner-program.ts).
 */
export async function backfillFunnelFor(userId: string, now = new Date()): Promise<'counted' | 'already' | 'none'> {
  const user = await getUserById(userId);
  if (!user) return 'none';
  const content = program();
  const enrollment = await getEnrollment(user.id, content.id);
  if (!enrollment || enrollment.staff) return 'none';
  if (enrollment.funnel_completed !== undefined) return 'already';
  const derived = deriveProgress(content, await listProgress(user.id, content.id));
  const { enrollmentUpdate, stats, week1 } = enrollmentTransition(user, enrollment, derived, content, now);
  try {
    await withWriteRetries(() =>
      db().send(new TransactWriteCommand({ TransactItems: [enrollmentUpdate, ...(stats ? [stats] : []), ...week1] })),
    );
    return 'counted';
  } catch (error) {
    if (error instanceof TransactionCanceledException) return 'already';
    throw error;
  }
}

export interface BackfillPosition {
  /** index into BACKFILL_STATUSES */
  status: number;
  key?: Record<string, unknown>;
}
export const BACKFILL_STATUSES = ['active', 'locked', 'deleted'] as const;

/**
 * Walks every account through the usersByStatus index (one partition per status, `pageSize` a
 * page, no Scan) from `from`, counting each uncounted enrollment; `onPage` gets the totals and
 * the position to resume from after each page.
 */
export async function backfillFunnel(
  from: BackfillPosition = { status: 0 },
  onPage: (totals: Record<'counted' | 'already' | 'none', number>, next: BackfillPosition) => void = () => {},
  pageSize = 100,
): Promise<Record<'counted' | 'already' | 'none', number>> {
  const index = INDEX.usersByStatus;
  const totals = { counted: 0, already: 0, none: 0 };
  for (let s = from.status; s < BACKFILL_STATUSES.length; s++) {
    let startKey = s === from.status ? from.key : undefined;
    do {
      const page = await db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: index.indexName,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': index.partitionKey },
          ExpressionAttributeValues: { ':pk': indexPartition.usersByStatus(BACKFILL_STATUSES[s]) },
          ProjectionExpression: 'id',
          Limit: pageSize,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) totals[await backfillFunnelFor(String(item.id))]++;
      startKey = page.LastEvaluatedKey;
      onPage({ ...totals }, { status: startKey ? s : s + 1, key: startKey });
    } while (startKey);
  }
  return totals;
}
