import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createDocumentClient, ScanForbiddenError } from './db';

describe('the DynamoDB client', () => {
  it('refuses any Scan before it reaches the network (docs/data-model.md: no Scan on request or job paths)', async () => {
    const client = createDocumentClient({ endpoint: 'http://127.0.0.1:9', maxAttempts: 1 });
    await expect(client.send(new ScanCommand({ TableName: 'anything' }))).rejects.toBeInstanceOf(ScanForbiddenError);
  });
});
