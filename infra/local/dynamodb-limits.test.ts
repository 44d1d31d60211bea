import { DynamoDBClient, DynamoDBServiceException, QueryCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { instrumentClient, registerLocalTwin } from '../../functions/lib/local-twin';
import { INDEX } from '../../functions/lib/table';
import { assertWithinDynamoDbLimits, DynamoDbLimitsTwin } from './dynamodb-limits';
import { testModel } from './iam/test-model';
import { IamTwin, runAs, runAsOperator } from './iam/twin';

const query = (partition: string, extra: Record<string, unknown> = {}) => ({
  TableName: 't',
  KeyConditionExpression: '#pk = :pk',
  ExpressionAttributeNames: { '#pk': 'pk' },
  ExpressionAttributeValues: { ':pk': { S: partition } },
  ...extra,
});
const refusal = (call: () => void) => {
  try {
    call();
  } catch (error) {
    return error as DynamoDBServiceException;
  }
  return undefined;
};

describe("DynamoDB's key limits where DynamoDB Local answers an empty page", () => {
  it('refuses a Query whose partition-key value is over 2,048 bytes (UTF-8), as DynamoDB does', () => {
    expect(refusal(() => assertWithinDynamoDbLimits('QueryCommand', query('x'.repeat(2048))))).toBeUndefined();
    const long = refusal(() => assertWithinDynamoDbLimits('QueryCommand', query('x'.repeat(2049))));
    expect(long).toBeInstanceOf(DynamoDBServiceException);
    expect(long).toMatchObject({
      name: 'ValidationException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400 },
      message: 'One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes',
    });
    // bytes, not characters: 1,025 two-byte characters are 2,050 bytes
    expect(refusal(() => assertWithinDynamoDbLimits('QueryCommand', query('é'.repeat(1025))))?.name).toBe('ValidationException');
    expect(refusal(() => assertWithinDynamoDbLimits('QueryCommand', query('é'.repeat(1024))))).toBeUndefined();
  });

  it("refuses an index Query whose partition-key value is over the limit, read from the index's own key", () => {
    const input = {
      TableName: 't',
      IndexName: INDEX.auditByEntity.indexName,
      KeyConditionExpression: '#ipk = :ipk',
      ExpressionAttributeNames: { '#ipk': INDEX.auditByEntity.partitionKey },
      ExpressionAttributeValues: { ':ipk': 'x'.repeat(3000) },
    };
    expect(refusal(() => assertWithinDynamoDbLimits('QueryCommand', input))?.name).toBe('ValidationException');
  });

  it('refuses a Query whose ExclusiveStartKey holds a partition key over 2,048 bytes or a sort key over 1,024', () => {
    const start = (pk: string, sk: string) => query('USER#1', { ExclusiveStartKey: { pk: { S: pk }, sk: { S: sk } } });
    expect(refusal(() => assertWithinDynamoDbLimits('QueryCommand', start('USER#1', 's'.repeat(1024))))).toBeUndefined();
    expect(refusal(() => assertWithinDynamoDbLimits('QueryCommand', start('USER#1', 's'.repeat(1025))))?.message).toBe(
      'The provided starting key is invalid: One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes',
    );
    expect(refusal(() => assertWithinDynamoDbLimits('QueryCommand', start('p'.repeat(2049), 's')))?.message).toMatch(
      /^The provided starting key is invalid: .*hashkey/,
    );
    const indexStart = {
      ...query('USER#1'),
      IndexName: INDEX.auditByEntity.indexName,
      ExclusiveStartKey: { pk: 'a', sk: 'b', [INDEX.auditByEntity.partitionKey]: 'c', [INDEX.auditByEntity.sortKey]: 'd'.repeat(1025) },
    };
    expect(refusal(() => assertWithinDynamoDbLimits('QueryCommand', indexStart))?.name).toBe('ValidationException');
  });

  it('leaves the calls DynamoDB Local already judges (and key-less ones) to it', () => {
    for (const command of ['GetItemCommand', 'PutItemCommand', 'BatchGetItemCommand', 'TransactWriteItemsCommand', 'DescribeTableCommand'])
      expect(refusal(() => assertWithinDynamoDbLimits(command, { Key: { pk: 'x'.repeat(3000) }, Item: { pk: 'x'.repeat(3000) } }))).toBe(
        undefined,
      );
  });
});

describe('the local twin applies them to every SDK call, before the call is sent', () => {
  afterEach(() => registerLocalTwin(undefined));

  function offlineClient(sent: string[]) {
    const client = new DynamoDBClient({ region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
    client.middlewareStack.add(
      (_next, context) => () => {
        sent.push(context.commandName ?? '');
        return Promise.resolve({ output: { $metadata: {} }, response: {} });
      },
      { step: 'finalizeRequest', name: 'offline' },
    );
    return instrumentClient(client);
  }

  it('as a function, as the operator, and with the IAM twin switched off', async () => {
    const model = testModel([
      { Effect: 'Allow', Action: 'dynamodb:Query', Resource: 'arn:aws:dynamodb:eu-west-1:123456789012:table/career-program' },
    ]);
    const sent: string[] = [];
    for (const twin of [new IamTwin(model), new DynamoDbLimitsTwin()]) {
      registerLocalTwin(twin);
      const client = offlineClient(sent);
      const long = () => client.send(new QueryCommand(query(`USER#${'x'.repeat(3000)}`)));
      await expect(runAs('auth', long)).rejects.toMatchObject({ name: 'ValidationException' });
      await expect(runAsOperator(long)).rejects.toMatchObject({ name: 'ValidationException' });
      await runAs('auth', () => client.send(new QueryCommand(query('USER#1'))));
    }
    expect(sent).toEqual(['QueryCommand', 'QueryCommand']);
  });
});
