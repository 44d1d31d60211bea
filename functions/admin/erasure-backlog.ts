import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../lib/db';
import { INDEX, indexPartition } from '../lib/table';
import { currentDate } from '../lib/clock';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Days since the oldest soft-delete still waiting in the erasureDue index (0 when none waits).
 * The daily erasure publishes it as a gauge: it stays under the retention period while erasure
 * works, and climbs past it day by day when erasure fails silently (infra/constructs/monitoring.ts
 * alarms at retention + 2 days). One query of one item, oldest first.
 */
export async function erasureBacklogDays(now = currentDate()): Promise<number> {
  const { indexName, partitionKey } = INDEX.erasureDue;
  const page = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: indexName,
      KeyConditionExpression: `${partitionKey} = :pk`,
      ExpressionAttributeValues: { ':pk': indexPartition.erasureDue() },
      Limit: 1,
    }),
  );
  const oldest: unknown = page.Items?.[0]?.deleted_at;
  if (typeof oldest !== 'string') return 0;
  return Math.max(0, Math.floor((now.getTime() - Date.parse(oldest)) / DAY_MS));
}
