import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  BatchGetItemCommand,
  DynamoDBClient,
  DynamoDBServiceException,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
} from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { checkLocalCall, instrumentClient, registerLocalTwin } from '../../../functions/lib/local-twin';
import { testModel } from './test-model';
import { IamTwin, NO_FUNCTION, runAs, runAsOperator } from './twin';

const model = testModel([
  {
    Effect: 'Allow',
    Action: ['dynamodb:GetItem'],
    Resource: 'arn:aws:dynamodb:eu-west-1:123456789012:table/career-program',
    Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['USER#*'] } },
  },
  { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: 'arn:aws:sqs:eu-west-1:123456789012:Stack-Purge' },
  { Effect: 'Allow', Action: 's3:PutObject', Resource: 'arn:aws:s3:::stack-exports/exports/*' },
]);

/** A client whose requests never leave the process: the last middleware answers. */
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

afterEach(() => registerLocalTwin(undefined));

describe('the IAM twin', () => {
  it("sends a call the function's role allows, and refuses one it does not as DynamoDB does (AccessDeniedException, 400), unsent", async () => {
    const twin = new IamTwin(model);
    registerLocalTwin(twin);
    const sent: string[] = [];
    const client = offlineClient(sent);
    await runAs('auth', () =>
      client.send(new GetItemCommand({ TableName: 'local-name', Key: { pk: { S: 'USER#1' }, sk: { S: 'PROFILE' } } })),
    );
    const refused = runAs('auth', () =>
      client.send(new GetItemCommand({ TableName: 'local-name', Key: { pk: { S: 'RATE#1' }, sk: { S: 'W' } } })),
    );
    await expect(refused).rejects.toBeInstanceOf(DynamoDBServiceException);
    await expect(refused).rejects.toMatchObject({
      name: 'AccessDeniedException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400 },
      message: expect.stringContaining('assumed-role/Stack-authRole/auth is not authorized to perform: dynamodb:GetItem') as unknown,
    });
    await expect(
      runAs('auth', () => client.send(new PutItemCommand({ TableName: 't', Item: { pk: { S: 'USER#1' } } }))),
    ).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });
    expect(sent).toEqual(['GetItemCommand']);
    expect(twin.deniedCalls.map((call) => [call.fn, call.action, call.leadingKeys])).toEqual([
      ['auth', 'dynamodb:GetItem', ['RATE#1']],
      ['auth', 'dynamodb:PutItem', ['USER#1']],
    ]);
  });

  it('holds each function to its own role, and lets the operator through unchecked', async () => {
    registerLocalTwin(new IamTwin(model));
    const sent: string[] = [];
    const client = offlineClient(sent);
    const get = () => client.send(new GetItemCommand({ TableName: 't', Key: { pk: { S: 'RATE#1' } } }));
    await expect(runAs('learner', get)).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await runAsOperator(get);
    expect(sent).toEqual(['GetItemCommand']);
  });

  it('refuses, unsent, a call made as no function and not as the operator (fails closed)', async () => {
    const twin = new IamTwin(model);
    registerLocalTwin(twin);
    const sent: string[] = [];
    const client = offlineClient(sent);
    // a key every role of the model allows: the refusal is about who calls, not what
    const outside = client.send(new GetItemCommand({ TableName: 't', Key: { pk: { S: 'USER#1' }, sk: { S: 'PROFILE' } } }));
    await expect(outside).rejects.toBeInstanceOf(DynamoDBServiceException);
    await expect(outside).rejects.toMatchObject({
      name: 'AccessDeniedException',
      $metadata: { httpStatusCode: 400 },
      message: expect.stringContaining('made as no function') as unknown,
    });
    // the calls the local runtime answers itself too
    await expect(checkLocalCall('sqs:SendMessage', { kind: 'queue', name: 'purge' })).rejects.toMatchObject({ name: 'AccessDenied' });
    await expect(checkLocalCall('secretsmanager:GetSecretValue', { kind: 'secret', name: 'session' })).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });
    expect(sent).toEqual([]);
    expect(twin.deniedCalls.map((call) => [call.fn, call.action])).toEqual([
      [NO_FUNCTION, 'dynamodb:GetItem'],
      [NO_FUNCTION, 'sqs:SendMessage'],
      [NO_FUNCTION, 'secretsmanager:GetSecretValue'],
    ]);
    // the same calls as a function whose role allows them, and as the operator, go through
    await runAs('auth', () => client.send(new GetItemCommand({ TableName: 't', Key: { pk: { S: 'USER#1' }, sk: { S: 'PROFILE' } } })));
    await runAsOperator(() => checkLocalCall('secretsmanager:GetSecretValue', { kind: 'secret', name: 'session' }));
    expect(sent).toEqual(['GetItemCommand']);
  });

  it('refuses, unsent, a call whose partition key it cannot read, even where the role would allow any key it could', async () => {
    const twin = new IamTwin(model);
    registerLocalTwin(twin);
    const sent: string[] = [];
    const client = offlineClient(sent);
    const unreadable = [
      // a number where the table's keys are strings
      new GetItemCommand({ TableName: 't', Key: { pk: { N: '1' }, sk: { S: 'PROFILE' } } }),
      // no partition key at all
      new GetItemCommand({ TableName: 't', Key: { sk: { S: 'PROFILE' } } }),
      // one readable key and one not: the readable one must not speak for both
      new BatchGetItemCommand({ RequestItems: { t: { Keys: [{ pk: { S: 'USER#1' } }, { pk: { N: '2' } }] } } }),
      // a Query the twin cannot find the partition of (the value on the left)
      new QueryCommand({ TableName: 't', KeyConditionExpression: ':p = pk', ExpressionAttributeValues: { ':p': { S: 'USER#1' } } }),
    ];
    for (const command of unreadable) {
      await expect(
        runAs('auth', () => client.send(command as GetItemCommand)),
        command.constructor.name,
      ).rejects.toMatchObject({
        name: 'AccessDeniedException',
        message: expect.stringContaining('could not read the partition key') as unknown,
      });
    }
    expect(sent).toEqual([]);
    expect(twin.deniedCalls.map((call) => [call.action, call.unreadableKey])).toEqual([
      ['dynamodb:GetItem', true],
      ['dynamodb:GetItem', true],
      ['dynamodb:BatchGetItem', true],
      ['dynamodb:Query', true],
    ]);
  });

  it('checks the calls the local runtime answers itself (queues, secrets, export objects)', async () => {
    registerLocalTwin(new IamTwin(model));
    await runAs('auth', () => checkLocalCall('sqs:SendMessage', { kind: 'queue', name: 'purge' }));
    await expect(runAs('auth', () => checkLocalCall('sqs:SendMessage', { kind: 'queue', name: 'reminders' }))).rejects.toMatchObject({
      name: 'AccessDenied',
      $metadata: { httpStatusCode: 403 },
    });
    await expect(
      runAs('auth', () => checkLocalCall('secretsmanager:GetSecretValue', { kind: 'secret', name: 'session' })),
    ).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });
    // an object is checked by its key: the grant's prefix, and the action, as S3 answers (AccessDenied, 403)
    const object = (key: string) => ({ kind: 'object', bucket: 'exports', key }) as const;
    await runAs('auth', () => checkLocalCall('s3:PutObject', object('exports/a.json')));
    for (const [action, key] of [
      ['s3:PutObject', 'elsewhere/a.json'],
      ['s3:GetObject', 'exports/a.json'],
    ])
      await expect(runAs('auth', () => checkLocalCall(action, object(key)))).rejects.toMatchObject({
        name: 'AccessDenied',
        $metadata: { httpStatusCode: 403 },
      });
  });

  it('records the grant units calls used and the calls it denied, once each', async () => {
    const recordDir = mkdtempSync(path.join(tmpdir(), 'twin-record-'));
    registerLocalTwin(new IamTwin(model, { recordDir }));
    const client = offlineClient([]);
    for (let i = 0; i < 3; i++)
      await runAs('auth', () => client.send(new GetItemCommand({ TableName: 't', Key: { pk: { S: `USER#${i}` } } })));
    await expect(runAs('auth', () => client.send(new GetItemCommand({ TableName: 't', Key: { pk: { S: 'RATE#1' } } })))).rejects.toThrow();
    const lines = readdirSync(recordDir).flatMap((file) => readFileSync(path.join(recordDir, file), 'utf8').trim().split('\n'));
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      { used: { fn: 'auth', statement: 'AuthPolicy/0', action: 'dynamodb:GetItem', resource: model.tableArn, leadingKeys: 'USER#*' } },
      { denied: { fn: 'auth', action: 'dynamodb:GetItem', resource: model.tableArn, leadingKeys: ['RATE#1'] } },
    ]);
  });

  it('adds nothing to a client created while no twin is registered (Lambda)', () => {
    const client = new DynamoDBClient({ region: 'eu-west-1' });
    const before = client.middlewareStack.identify().length;
    instrumentClient(client);
    expect(client.middlewareStack.identify().length).toBe(before);
  });
});
