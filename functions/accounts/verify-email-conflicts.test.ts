import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../groups/auth';
import { keys } from '../lib/table';
import { newCode } from './codes';

/**
 * verify-email under write contention (docs/scale-writes.md): the code is spent in the same
 * transaction that verifies the account, conflicts are retried, and when they outlast the
 * retries the answer is 503 `unavailable` with Retry-After — never an "ok" for an account that
 * stays unverified, and never a spent code.
 */
const dynamo = mockClient(DynamoDBDocumentClient);
afterAll(() => dynamo.restore());

const user = {
  ...keys.user('u-9'),
  id: 'u-9',
  email: 'grace@example.com',
  email_lower: 'grace@example.com',
  first_name: 'Grace',
  last_name: 'Hopper',
  status: 'active',
  verified: false,
  version: 1,
};
const { code, stored } = newCode();

beforeEach(() => {
  dynamo.reset();
  dynamo.on(GetCommand).callsFake((input: { Key: { pk: string; sk: string } }) => {
    if (input.Key.pk.startsWith('EMAIL#')) return { Item: { user_id: user.id } };
    if (input.Key.sk === 'PROFILE') return { Item: user };
    return { Item: { ...keys.code(user.id, 'verify_email'), ...stored } };
  });
  dynamo.on(UpdateCommand).resolves({ Attributes: { count: 1 } });
  dynamo.on(PutCommand).resolves({});
  dynamo.on(DeleteCommand).resolves({});
});

const event = () =>
  ({
    version: '2.0',
    routeKey: 'POST /api/auth/verify-email',
    rawPath: '/api/auth/verify-email',
    rawQueryString: '',
    headers: { 'content-type': 'application/json', 'user-agent': 'unit' },
    body: JSON.stringify({ email: user.email, code }),
    isBase64Encoded: false,
    requestContext: {
      http: { method: 'POST', path: '/api/auth/verify-email', protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'unit' },
      requestId: 'r-9',
      routeKey: 'POST /api/auth/verify-email',
    },
  }) as unknown as APIGatewayProxyEventV2;
const context = { functionName: 'auth', awsRequestId: 'a-9', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;
const call = async () => {
  const result = await handler(event(), context);
  return { status: result.statusCode, body: JSON.parse(String(result.body)) as unknown, headers: result.headers ?? {} };
};
const conflict = () =>
  new TransactionCanceledException({
    message: 'cancelled',
    $metadata: {},
    CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }, { Code: 'None' }, { Code: 'None' }],
  });

describe('POST /api/auth/verify-email under write conflicts', () => {
  it('retries a conflict and verifies the account with the code spent in the same transaction', async () => {
    dynamo.on(TransactWriteCommand).rejectsOnce(conflict()).resolves({});
    const response = await call();
    expect(response.status).toBe(200);
    const writes = dynamo.commandCalls(TransactWriteCommand);
    expect(writes).toHaveLength(2);
    const items = writes[1].args[0].input.TransactItems!;
    expect(items[0].Delete?.Key).toEqual(keys.code(user.id, 'verify_email'));
    expect(items[1].Update?.Key).toEqual(keys.user(user.id));
    // the code is never deleted on its own
    expect(dynamo.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it('answers 503 unavailable with Retry-After when conflicts outlast the retries, and leaves the code usable', async () => {
    dynamo.on(TransactWriteCommand).rejects(conflict());
    const response = await call();
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ error: 'unavailable' });
    expect(response.headers['Retry-After']).toBe('2');
    expect(dynamo.commandCalls(TransactWriteCommand).length).toBeGreaterThan(1);
    expect(dynamo.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it('answers ok when another request verified the account meanwhile', async () => {
    dynamo.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'cancelled',
        $metadata: {},
        CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'None' }],
      }),
    );
    let reads = 0;
    dynamo.on(GetCommand).callsFake((input: { Key: { pk: string; sk: string } }) => {
      if (input.Key.pk.startsWith('EMAIL#')) return { Item: { user_id: user.id } };
      if (input.Key.sk === 'PROFILE') return { Item: { ...user, verified: reads++ > 0 } };
      return { Item: { ...keys.code(user.id, 'verify_email'), ...stored } };
    });
    const response = await call();
    expect(response.status).toBe(200);
  });

  it('verifies again from the new status when an admin locked the account meanwhile (the counters move from the status written)', async () => {
    let profileReads = 0;
    dynamo.on(GetCommand).callsFake((input: { Key: { pk: string; sk: string } }) => {
      if (input.Key.pk.startsWith('EMAIL#')) return { Item: { user_id: user.id } };
      // read as active first; locked by the time the transaction runs
      if (input.Key.sk === 'PROFILE') return { Item: ++profileReads === 1 ? user : { ...user, status: 'locked', version: 2 } };
      return { Item: { ...keys.code(user.id, 'verify_email'), ...stored } };
    });
    const statusChanged = new TransactionCanceledException({
      message: 'cancelled',
      $metadata: {},
      CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'None' }],
    });
    dynamo.on(TransactWriteCommand).rejectsOnce(statusChanged).resolves({});
    const response = await call();
    expect(response.status).toBe(200);
    const writes = dynamo.commandCalls(TransactWriteCommand);
    expect(writes).toHaveLength(2);
    const items = writes[1].args[0].input.TransactItems!;
    expect(items[1].Update?.ExpressionAttributeValues?.[':status']).toBe('locked');
    const stats = items.find((item) => String(item.Update?.Key?.pk).startsWith('STATS'))!.Update!;
    const deltas = Object.fromEntries(
      Object.entries(stats.ExpressionAttributeNames!).map(([alias, field]) => [
        field,
        stats.ExpressionAttributeValues![alias.replace('#f', ':d')],
      ]),
    );
    expect(deltas).toEqual({ users_verified: 1, users_unverified_locked: -1 });
  });
});
