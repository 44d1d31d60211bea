import { describe, expect, it } from 'vitest';
import { INDEX } from '../../../functions/lib/table';
import { dynamoDbRequests, sesRequests } from './requests';
import { testModel } from './test-model';

const model = testModel([]);
const table = model.tableArn;

describe('the authorisations a DynamoDB call needs', () => {
  it('names the partition key of a single-item call, marshalled or not, whatever the local table is called', () => {
    expect(
      dynamoDbRequests('GetItemCommand', { TableName: 'test-1234', Key: { pk: { S: 'USER#1' }, sk: { S: 'PROFILE' } } }, model),
    ).toEqual([{ action: 'dynamodb:GetItem', resource: table, leadingKeys: ['USER#1'] }]);
    expect(dynamoDbRequests('PutItemCommand', { Item: { pk: 'RATE#x', sk: 'W' } }, model)).toEqual([
      { action: 'dynamodb:PutItem', resource: table, leadingKeys: ['RATE#x'] },
    ]);
    expect(dynamoDbRequests('UpdateItemCommand', { Key: { pk: { S: 'STATS#GLOBAL#3' } } }, model)[0].action).toBe('dynamodb:UpdateItem');
    expect(dynamoDbRequests('DeleteItemCommand', { Key: { pk: { S: 'CHALLENGE#c' } } }, model)[0]).toMatchObject({
      leadingKeys: ['CHALLENGE#c'],
    });
  });

  it('authorises each item of a transaction as its own action', () => {
    const requests = dynamoDbRequests(
      'TransactWriteItemsCommand',
      {
        TransactItems: [
          { Put: { Item: { pk: { S: 'USER#1' } } } },
          { Update: { Key: { pk: { S: 'USERSEARCH#s' } } } },
          { Delete: { Key: { pk: { S: 'EMAIL#a@b' } } } },
          { ConditionCheck: { Key: { pk: { S: 'USER#2' } } } },
        ],
      },
      model,
    );
    expect(requests.map((request) => [request.action, request.leadingKeys])).toEqual([
      ['dynamodb:PutItem', ['USER#1']],
      ['dynamodb:UpdateItem', ['USERSEARCH#s']],
      ['dynamodb:DeleteItem', ['EMAIL#a@b']],
      ['dynamodb:ConditionCheckItem', ['USER#2']],
    ]);
    expect(dynamoDbRequests('TransactGetItemsCommand', { TransactItems: [{ Get: { Key: { pk: { S: 'USER#1' } } } }] }, model)).toEqual([
      { action: 'dynamodb:GetItem', resource: table, leadingKeys: ['USER#1'] },
    ]);
  });

  it('names every partition key of a batch in one request', () => {
    expect(
      dynamoDbRequests(
        'BatchWriteItemCommand',
        { RequestItems: { t: [{ PutRequest: { Item: { pk: { S: 'AUDIT#1' } } } }, { DeleteRequest: { Key: { pk: { S: 'USER#1' } } } }] } },
        model,
      ),
    ).toEqual([{ action: 'dynamodb:BatchWriteItem', resource: table, leadingKeys: ['AUDIT#1', 'USER#1'] }]);
    expect(
      dynamoDbRequests('BatchGetItemCommand', { RequestItems: { t: { Keys: [{ pk: { S: 'A#1' } }, { pk: { S: 'B#2' } }] } } }, model),
    ).toEqual([{ action: 'dynamodb:BatchGetItem', resource: table, leadingKeys: ['A#1', 'B#2'] }]);
  });

  it('queries the table or an index by its ARN, with the partition the key condition names', () => {
    expect(
      dynamoDbRequests(
        'QueryCommand',
        {
          KeyConditionExpression: '#pk = :p AND begins_with(sk, :s)',
          ExpressionAttributeNames: { '#pk': 'pk' },
          ExpressionAttributeValues: { ':p': { S: 'USER#1' }, ':s': { S: 'S' } },
        },
        model,
      ),
    ).toEqual([{ action: 'dynamodb:Query', resource: table, leadingKeys: ['USER#1'] }]);
    expect(
      dynamoDbRequests(
        'QueryCommand',
        {
          IndexName: INDEX.usersByStatus.indexName,
          KeyConditionExpression: '#ipk = :ipk',
          ExpressionAttributeNames: { '#ipk': INDEX.usersByStatus.partitionKey },
          ExpressionAttributeValues: { ':ipk': { S: 'USERS#active#3' } },
        },
        model,
      ),
    ).toEqual([{ action: 'dynamodb:Query', resource: `${table}/index/${INDEX.usersByStatus.indexName}`, leadingKeys: ['USERS#active#3'] }]);
  });

  it('marks a call that carries keys as unreadable when one of them is not a string or is missing', () => {
    const unreadable = (command: string, input: Record<string, unknown>) =>
      dynamoDbRequests(command, input, model).some((request) => request.unreadableKey);
    expect(unreadable('GetItemCommand', { Key: { pk: { N: '1' } } })).toBe(true);
    expect(unreadable('PutItemCommand', { Item: { sk: { S: 'PROFILE' } } })).toBe(true);
    expect(unreadable('UpdateItemCommand', {})).toBe(true);
    expect(unreadable('BatchWriteItemCommand', { RequestItems: { t: [{ PutRequest: { Item: { pk: { S: 'A#1' } } } }, {}] } })).toBe(true);
    expect(unreadable('BatchGetItemCommand', { RequestItems: { t: { Keys: [] } } })).toBe(true);
    expect(unreadable('TransactWriteItemsCommand', { TransactItems: [{ Put: { Item: { pk: { S: 'A#1' } } } }, { Delete: {} }] })).toBe(
      true,
    );
    expect(unreadable('TransactGetItemsCommand', { TransactItems: [] })).toBe(true);
    // a Query without an equality on the queried partition key (here: on the sort key only)
    expect(unreadable('QueryCommand', { KeyConditionExpression: 'sk = :s', ExpressionAttributeValues: { ':s': { S: 'x' } } })).toBe(true);
    expect(unreadable('GetItemCommand', { Key: { pk: { S: 'USER#1' } } })).toBe(false);
    expect(unreadable('DescribeTableCommand', {})).toBe(false);
  });

  it('names table-level calls without a key', () => {
    expect(dynamoDbRequests('DescribeTableCommand', { TableName: 'x' }, model)).toEqual([
      { action: 'dynamodb:DescribeTable', resource: table },
    ]);
    expect(dynamoDbRequests('ScanCommand', { TableName: 'x' }, model)).toEqual([{ action: 'dynamodb:Scan', resource: table }]);
  });
});

describe('the authorisations an SES send needs', () => {
  it('is the sending identity, and the configuration set (of either mail stream) when the send names one', () => {
    expect(sesRequests('SendEmailCommand', {}, model)).toEqual([{ action: 'ses:SendEmail', resource: model.mailIdentityArn }]);
    expect(sesRequests('SendEmailCommand', { ConfigurationSetName: model.configurationSetName }, model)).toEqual([
      { action: 'ses:SendEmail', resource: model.mailIdentityArn },
      { action: 'ses:SendEmail', resource: model.configurationSetArn },
    ]);
    expect(sesRequests('SendEmailCommand', { ConfigurationSetName: model.bulkConfigurationSetName }, model)[1]).toEqual({
      action: 'ses:SendEmail',
      resource: model.bulkConfigurationSetArn,
    });
    expect(sesRequests('SendEmailCommand', { ConfigurationSetName: 'other' }, model)[1].resource).toBe(
      'arn:aws:ses:eu-west-1:123456789012:configuration-set/other',
    );
    expect(sesRequests('SendRawEmailCommand', {}, model)[0].action).toBe('ses:SendRawEmail');
  });
});
