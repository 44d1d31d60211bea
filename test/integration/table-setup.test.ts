import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { GSIS, KEY } from '../../functions/lib/table';
import { ensureTable } from '../../infra/local/table-setup';

/** A local DATA_DIR made before an index existed gets it on the next start (docs/runbook.md#erasure). */
describe('the local table setup', () => {
  it('adds the indexes an existing table lacks', async () => {
    const client = new DynamoDBClient({
      endpoint: process.env.DYNAMODB_ENDPOINT,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const TableName = `old-${Date.now().toString(36)}`;
    // a table of before the erasure index: every other index, not erasureDue
    const before = GSIS.filter((gsi) => gsi.indexName !== 'erasureDue');
    await client.send(
      new CreateTableCommand({
        TableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [KEY.partitionKey, KEY.sortKey, ...before.flatMap((gsi) => [gsi.partitionKey, gsi.sortKey])].map((name) => ({
          AttributeName: name,
          AttributeType: 'S',
        })),
        KeySchema: [
          { AttributeName: KEY.partitionKey, KeyType: 'HASH' },
          { AttributeName: KEY.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: before.map((gsi) => ({
          IndexName: gsi.indexName,
          KeySchema: [
            { AttributeName: gsi.partitionKey, KeyType: 'HASH' },
            { AttributeName: gsi.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    );
    try {
      expect(await ensureTable(client, TableName)).toBe('exists');
      const { Table } = await client.send(new DescribeTableCommand({ TableName }));
      expect((Table?.GlobalSecondaryIndexes ?? []).map((gsi) => gsi.IndexName).sort()).toEqual(GSIS.map((gsi) => gsi.indexName).sort());
      // a second start changes nothing
      expect(await ensureTable(client, TableName)).toBe('exists');
    } finally {
      await client.send(new DeleteTableCommand({ TableName }));
      client.destroy();
    }
  });
});
