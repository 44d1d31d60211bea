import { BatchGetCommand, DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tableName } from './db';
import { ABSOLUTE_LIFETIME_SECONDS, resolveSession, SESSION_KEPT_AFTER_END_SECONDS, sessionEndMs, startSession } from './session';
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

describe('the session item', () => {
  it('is kept 8 days past the session: its end is its sign-in time + 12 hours, never its TTL', async () => {
    await startSession({ id: 'u1', session_version: 0 });
    const item = dynamo.commandCalls(PutCommand)[0].args[0].input.Item!;
    const createdMs = Date.parse(String(item.created_at));
    expect(SESSION_KEPT_AFTER_END_SECONDS).toBe(8 * 24 * 3600);
    expect(Number(item.expires_at)).toBe(Math.floor(createdMs / 1000) + ABSOLUTE_LIFETIME_SECONDS + SESSION_KEPT_AFTER_END_SECONDS);
    expect(sessionEndMs(String(item.created_at))).toBe(createdMs + 12 * 3600 * 1000);
    expect(sessionEndMs(undefined)).toBeNaN();
  });
});
