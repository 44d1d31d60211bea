import { BatchGetCommand, DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tableName } from './db';
import { resolveSession, startSession } from './session';
import { keys } from './table';

const dynamo = mockClient(DynamoDBDocumentClient);
afterAll(() => dynamo.restore());
beforeEach(() => {
  dynamo.reset();
  dynamo.on(PutCommand).resolves({});
});
afterEach(() => vi.restoreAllMocks());

describe('resolveSession', () => {
  it('reads a key DynamoDB left unprocessed again instead of signing the person out', async () => {
    const { cookie, sessionId } = await startSession({ id: 'u1', session_version: 0 });
    const user = { ...keys.user('u1'), id: 'u1', status: 'active', session_version: 0 };
    const session = { ...keys.session('u1', sessionId), user_id: 'u1' };
    vi.spyOn(Math, 'random').mockReturnValue(0); // no wait before the second read
    dynamo
      .on(BatchGetCommand)
      .resolvesOnce({ Responses: { [tableName()]: [user] }, UnprocessedKeys: { [tableName()]: { Keys: [keys.session('u1', sessionId)] } } })
      .resolvesOnce({ Responses: { [tableName()]: [session] } });
    const active = await resolveSession(cookie.split(';')[0]);
    expect(active).toMatchObject({ sessionId, user: { id: 'u1' } });
    const second = dynamo.commandCalls(BatchGetCommand)[1].args[0].input.RequestItems![tableName()];
    expect(second).toEqual({ Keys: [keys.session('u1', sessionId)], ConsistentRead: true });
  });
});
