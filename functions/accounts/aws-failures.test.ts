import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { LimitExceededException, MessageRejected, SESv2Client, SendEmailCommand, TooManyRequestsException } from '@aws-sdk/client-sesv2';
import {
  BatchGetCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../groups/auth';
import { tableName } from '../lib/db';
import { keys } from '../lib/table';
import { hashPassword } from './passwords';

/**
 * AWS failure paths through the real auth Lambda chain, with DynamoDB and SES mocked: a failing
 * dependency must give a clean error code, never a crash or an internal message.
 */
const dynamo = mockClient(DynamoDBDocumentClient);
const ses = mockClient(SESv2Client);
afterAll(() => {
  dynamo.restore();
  ses.restore();
});

beforeEach(() => {
  dynamo.reset();
  ses.reset();
  dynamo.on(GetCommand).resolves({});
  dynamo.on(UpdateCommand).resolves({ Attributes: {} });
  dynamo.on(PutCommand).resolves({});
  dynamo.on(DeleteCommand).resolves({});
  dynamo.on(TransactWriteCommand).resolves({});
  ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
});

function post(path: string, body: unknown): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: `POST ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers: { 'content-type': 'application/json', 'user-agent': 'unit' },
    body: JSON.stringify(body),
    isBase64Encoded: false,
    requestContext: {
      accountId: 'unit',
      apiId: 'unit',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method: 'POST', path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'unit' },
      requestId: 'r-1',
      routeKey: `POST ${path}`,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
  };
}

const context = { functionName: 'auth', awsRequestId: 'a-1', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;
const call = async (event: APIGatewayProxyEventV2) => {
  const result = await handler(event, context);
  return { status: result.statusCode, body: JSON.parse(String(result.body)) as unknown, headers: result.headers ?? {} };
};

const registration = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  password: 'analytical engine notes',
  passwordConfirm: 'analytical engine notes',
};

describe('AWS failures on the account routes', () => {
  it('maps SES rejecting the verification email to 502 email_rejected', async () => {
    ses.on(SendEmailCommand).rejects(new MessageRejected({ message: 'Email address is not verified.', $metadata: {} }));
    const response = await call(post('/api/auth/register', registration));
    expect(response.status).toBe(502);
    expect(response.body).toEqual({ error: 'email_rejected' });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
  });

  it.each([
    ['the send rate', new TooManyRequestsException({ message: 'Maximum sending rate exceeded.', $metadata: { httpStatusCode: 429 } })],
    ['the daily quota', new LimitExceededException({ message: 'Daily message quota exceeded.', $metadata: { httpStatusCode: 400 } })],
  ])('maps SES refusing for %s to 503 email_unavailable with Retry-After', async (_, refusal) => {
    ses.on(SendEmailCommand).rejects(refusal);
    const response = await call(post('/api/auth/register', registration));
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ error: 'email_unavailable' });
    expect(response.headers['Retry-After']).toBe('60');
  });

  it.each([
    'BadRequestException',
    'MailFromDomainNotVerifiedException',
    'NotFoundException',
    'SendingPausedException',
    'AccountSuspendedException',
  ])('maps SES v2 %s (the message will not go out) to 502 email_rejected', async (name) => {
    ses.on(SendEmailCommand).rejects(Object.assign(new Error(name), { name, $metadata: { httpStatusCode: 400 } }));
    const response = await call(post('/api/auth/register', registration));
    expect(response.status).toBe(502);
    expect(response.body).toEqual({ error: 'email_rejected' });
  });

  it('maps a ConditionalCheckFailed on the registration transaction to 409 already_registered', async () => {
    dynamo.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'Transaction cancelled',
        $metadata: {},
        CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }, { Code: 'None' }],
      }),
    );
    const response = await call(post('/api/auth/register', registration));
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ error: 'already_registered' });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  it('still answers a reset request { ok: true } when SES fails for a real account', async () => {
    const user = {
      ...keys.user('u-1'),
      id: 'u-1',
      email: 'ada@example.com',
      email_lower: 'ada@example.com',
      first_name: 'Ada',
      status: 'active',
      is_locked: false,
      verified: true,
      password_hash: await hashPassword('analytical engine notes'),
    };
    dynamo.on(GetCommand, { Key: keys.email('ada@example.com') }).resolves({ Item: { user_id: 'u-1' } });
    dynamo.on(GetCommand, { Key: keys.user('u-1') }).resolves({ Item: user });
    ses.on(SendEmailCommand).rejects(new MessageRejected({ message: 'rejected', $metadata: {} }));
    const response = await call(post('/api/auth/password-reset/request', { email: 'ada@example.com' }));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
  });

  it('maps SES failing to send the login code to a clean 5xx code', async () => {
    const user = {
      ...keys.user('u-2'),
      id: 'u-2',
      email: 'grace@example.com',
      email_lower: 'grace@example.com',
      first_name: 'Grace',
      status: 'active',
      is_locked: false,
      verified: true,
      password_hash: await hashPassword('compiler pioneer 1952'),
    };
    dynamo.on(GetCommand, { Key: keys.email('grace@example.com') }).resolves({ Item: { user_id: 'u-2' } });
    dynamo.on(GetCommand, { Key: keys.user('u-2') }).resolves({ Item: user });
    // the password step reads the account with its sign-in limits in one batch (none of them spent)
    dynamo.on(BatchGetCommand).resolves({ Responses: { [tableName()]: [user] } });
    ses.on(SendEmailCommand).rejects(Object.assign(new Error('Service unavailable'), { name: 'ServiceUnavailable', $metadata: {} }));
    const response = await call(post('/api/auth/login', { email: 'grace@example.com', password: 'compiler pioneer 1952' }));
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ error: 'email_unavailable' });
  });
});
