/**
 * `npm run backfill-funnel [-- --resume <token>]`: counts every enrollment written before the
 * admin summary's module funnel existed (docs/data-model.md "Module funnel"). It walks the
 * accounts through the usersByStatus index (one partition per status, 100 per page, no Scan),
 * and counts each uncounted enrollment with the same version-guarded transition as a progress
 * write (functions/program/funnel-backfill.ts). Idempotent: a rerun skips what is counted; after
 * each page it prints a resume token. Uses TABLE_NAME / DYNAMODB_ENDPOINT like make-admin.
 */
export {};

async function main() {
  if (!process.env.SESSION_SECRET && !process.env.SESSION_SECRET_ARN) process.env.SESSION_SECRET = 'unused-by-backfill-funnel-unused-by-backfill';
  const { QueryCommand } = await import('@aws-sdk/lib-dynamodb');
  const { db, tableName } = await import('../../functions/lib/db');
  const { INDEX, indexPartition } = await import('../../functions/lib/table');
  const { backfillFunnelFor } = await import('../../functions/program/funnel-backfill');
  const index = INDEX.usersByStatus;
  const statuses = ['active', 'locked', 'deleted'];
  const resumeAt = process.argv.indexOf('--resume');
  let resume = resumeAt > 0 ? (JSON.parse(Buffer.from(process.argv[resumeAt + 1] ?? '', 'base64url').toString()) as { status: number; key?: Record<string, unknown> }) : { status: 0 };
  const totals = { counted: 0, already: 0, none: 0 };
  for (let s = resume.status; s < statuses.length; s++) {
    let startKey = s === resume.status ? resume.key : undefined;
    do {
      const page = await db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: index.indexName,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': index.partitionKey },
          ExpressionAttributeValues: { ':pk': indexPartition.usersByStatus(statuses[s]) },
          ProjectionExpression: 'id',
          Limit: 100,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) totals[await backfillFunnelFor(String(item.id))]++;
      startKey = page.LastEvaluatedKey;
      resume = { status: startKey ? s : s + 1, key: startKey };
      console.log(`${statuses[s]}: counted ${totals.counted}, already counted ${totals.already}, no enrollment ${totals.none}; resume token ${Buffer.from(JSON.stringify(resume)).toString('base64url')}`);
    } while (startKey);
  }
  console.log(`done: ${totals.counted} enrollments counted, ${totals.already} already counted.`);
}

main().catch((error) => {
  console.error(`backfill-funnel failed: ${(error as Error).message}`);
  process.exit(1);
});
