import { BatchGetCommand, BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockDocumentClient } from '../../test/helpers/dynamo-mock';
import { describe, expect, it } from 'vitest';
import { batchDeleteItems, batchGetItems, batchWriteItems } from './batch-items';
import { tableName } from './db';
import { queryAll, queryUpTo } from './query-pages';

const dynamo = mockDocumentClient();

const key = (n: number) => ({ pk: `USER#${n}`, sk: 'PROFILE' });
const keysSent = (call: number) => dynamo.commandCalls(BatchGetCommand)[call].args[0].input.RequestItems![tableName()].Keys;

describe('batchGetItems', () => {
  it('sends the keys DynamoDB left unprocessed again and returns every item', async () => {
    dynamo
      .on(BatchGetCommand)
      .resolvesOnce({ Responses: { [tableName()]: [key(1)] }, UnprocessedKeys: { [tableName()]: { Keys: [key(2)] } } })
      .resolvesOnce({ Responses: { [tableName()]: [key(2)] } });
    expect(await batchGetItems([key(1), key(2)], { consistentRead: true })).toEqual([key(1), key(2)]);
    expect(keysSent(1)).toEqual([key(2)]);
    expect(dynamo.commandCalls(BatchGetCommand)[1].args[0].input.RequestItems![tableName()].ConsistentRead).toBe(true);
  });

  it('splits at 100 keys and names projected attributes (reserved words included)', async () => {
    dynamo.on(BatchGetCommand).resolves({ Responses: { [tableName()]: [] } });
    await batchGetItems(
      Array.from({ length: 150 }, (_, n) => key(n)),
      { projection: ['id', 'status'] },
    );
    const calls = dynamo.commandCalls(BatchGetCommand);
    expect(calls.map((call) => call.args[0].input.RequestItems![tableName()].Keys!.length).sort()).toEqual([100, 50]);
    expect(calls[0].args[0].input.RequestItems![tableName()]).toMatchObject({
      ProjectionExpression: '#p0, #p1',
      ExpressionAttributeNames: { '#p0': 'id', '#p1': 'status' },
    });
  });

  it('fails instead of answering part of the items when keys stay unprocessed', async () => {
    dynamo.on(BatchGetCommand).resolves({ Responses: { [tableName()]: [] }, UnprocessedKeys: { [tableName()]: { Keys: [key(1)] } } });
    await expect(batchGetItems([key(1)])).rejects.toThrow('BatchGetItem left 1 requests unprocessed');
    expect(dynamo.commandCalls(BatchGetCommand)).toHaveLength(8);
  });
});

describe('batchWriteItems', () => {
  it('sends unprocessed items again, 25 a call', async () => {
    const deletes = Array.from({ length: 30 }, (_, n) => ({ DeleteRequest: { Key: key(n) } }));
    dynamo
      .on(BatchWriteCommand)
      .resolvesOnce({ UnprocessedItems: { [tableName()]: deletes.slice(0, 2) } })
      .resolves({});
    await batchWriteItems(deletes, 1);
    const sent = dynamo.commandCalls(BatchWriteCommand).map((call) => call.args[0].input.RequestItems![tableName()]);
    expect(sent.map((requests) => requests.length)).toEqual([25, 2, 5]);
    expect(sent[1]).toEqual(deletes.slice(0, 2));
  });

  it('deletes by key, and fails when items stay unprocessed', async () => {
    dynamo.on(BatchWriteCommand).resolves({ UnprocessedItems: { [tableName()]: [{ DeleteRequest: { Key: key(1) } }] } });
    await expect(batchDeleteItems([key(1)])).rejects.toThrow('BatchWriteItem left 1 requests unprocessed');
    expect(dynamo.commandCalls(BatchWriteCommand)[0].args[0].input.RequestItems![tableName()]).toEqual([
      { DeleteRequest: { Key: key(1) } },
    ]);
  });
});

describe('queryAll and queryUpTo', () => {
  it('follow LastEvaluatedKey page by page on the table', async () => {
    const pages = [{ Items: [key(1)], LastEvaluatedKey: key(1) }, { Items: [key(2)] }];
    const sent: Array<{ table?: string; start?: unknown }> = [];
    dynamo.on(QueryCommand).callsFake((input: { TableName?: string; ExclusiveStartKey?: unknown }) => {
      sent.push({ table: input.TableName, start: input.ExclusiveStartKey });
      return pages.shift();
    });
    expect(await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'USER#1' } })).toEqual([
      key(1),
      key(2),
    ]);
    expect(sent).toEqual([
      { table: tableName(), start: undefined },
      { table: tableName(), start: key(1) },
    ]);
  });

  it('stop reading at the cap and say more exist', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [key(1), key(2)], LastEvaluatedKey: key(2) });
    expect(await queryUpTo({ KeyConditionExpression: 'pk = :pk' }, 3)).toEqual({ items: [key(1), key(2), key(1)], truncated: true });
    expect(dynamo.commandCalls(QueryCommand)).toHaveLength(2);
  });
});
