import { auditEntriesOf } from '../../functions/lib/audit';
import { queryAll } from '../../functions/lib/query-pages';
import { auditRefPartition } from '../../functions/lib/table';
import { drainActivityStream } from '../../infra/local/activity-stream';

/**
 * Every audit entry about one entity, as stored: the entries its entity references name
 * (functions/lib/audit.ts), oldest first like the key order they are read in, once the table's
 * stream has written the references of entries written inside a transaction.
 */
export async function storedAuditEntries<T = Record<string, unknown>>(entityType: string, entityId: string): Promise<T[]> {
  await drainActivityStream();
  const refs = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': auditRefPartition.entity(entityType, entityId) },
  });
  return (await auditEntriesOf(refs)) as T[];
}
