import { DynamoDBClient, paginateScan } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { tableName } from '../../functions/lib/db';

/** Every item of the table (a test-only Scan, through a raw client: the app's client forbids Scan). */
export async function everyItem(): Promise<Record<string, unknown>[]> {
  const client = new DynamoDBClient({
    endpoint: process.env.DYNAMODB_ENDPOINT,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const items: Record<string, unknown>[] = [];
  for await (const page of paginateScan({ client }, { TableName: tableName() }))
    items.push(...(page.Items ?? []).map((item) => unmarshall(item)));
  client.destroy();
  return items;
}
