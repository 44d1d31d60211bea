import { DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { keys } from '../lib/table';
import type { UserRecord } from '../lib/user-record';
import { changePassword } from './password-change';
import { hashPassword } from './passwords';

/** A password change must never leave the new password set while the other sessions live on. */
const dynamo = mockClient(DynamoDBDocumentClient);
afterAll(() => dynamo.restore());
beforeEach(() => {
  dynamo.reset();
  dynamo.on(UpdateCommand).resolves({});
  dynamo.on(TransactWriteCommand).resolves({});
  // any write to the profile outside the transaction fails: the change must not depend on one
  dynamo.on(UpdateCommand, { Key: keys.user('u-1') }).rejects(new Error('a second write to the profile'));
});

const caller = { ip: '203.0.113.9', userAgent: 'unit' };

describe('changePassword', () => {
  it('writes the new hash and the next session version in one transaction, then re-signs only the kept session', async () => {
    const user = {
      id: 'u-1',
      email: 'ada@example.com',
      password_hash: await hashPassword('old harbor lantern'),
      session_version: 4,
    } as UserRecord;
    const input = {
      current_password: 'old harbor lantern',
      new_password: 'new copper meadow 7',
      confirm_new_password: 'new copper meadow 7',
    };
    const { cookie } = await changePassword(user, 's-1', input, caller);
    expect(cookie).toMatch(/^__Host-session=/);

    const [transaction] = dynamo.commandCalls(TransactWriteCommand);
    const update = transaction.args[0].input.TransactItems?.[0].Update;
    expect(update?.Key).toEqual(keys.user('u-1'));
    expect(update?.UpdateExpression).toContain('session_version = :version');
    expect(update?.ExpressionAttributeValues?.[':version']).toBe(5);
    expect(update?.ConditionExpression).toContain('session_version = :current');
    // the kept session is marked with the new version
    const kept = dynamo.commandCalls(UpdateCommand).find((call) => call.args[0].input.Key?.sk === 'SESSION#s-1');
    expect(kept?.args[0].input.ExpressionAttributeValues?.[':version']).toBe(5);
  });
});
