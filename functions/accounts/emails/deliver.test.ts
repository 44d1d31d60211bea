import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetAccountCommand, MessageRejected, SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { resetSesClientForTests } from '../../lib/email';
import { deliver } from './deliver';

/** The mail budget (../mail-budget.ts) pays only for mails that went out. */
const dynamo = mockClient(DynamoDBDocumentClient);
const ses = mockClient(SESv2Client);
afterAll(() => {
  dynamo.restore();
  ses.restore();
});
beforeEach(() => {
  dynamo.reset();
  ses.reset();
  resetSesClientForTests();
  dynamo.on(UpdateCommand).resolves({});
  ses.on(GetAccountCommand).resolves({ SendQuota: { Max24HourSend: 50_000, MaxSendRate: 14, SentLast24Hours: 0 } });
});

const message = { to: 'learner@example.com', subject: 'Your login code', text: 'code', html: '<p>code</p>' };
const sender = { account: 'user-1', ip: '203.0.113.9' };
const budgetWrites = () => dynamo.commandCalls(UpdateCommand).map((call) => call.args[0].input);
const full = () => new ConditionalCheckFailedException({ message: 'full', $metadata: {} });

describe('deliver and the mail budget', () => {
  it("gives a reserved mail back to the account's and the address block's allowances when SES refuses the send", async () => {
    ses.on(SendEmailCommand).rejects(new MessageRejected({ message: 'rejected', $metadata: {} }));
    await expect(deliver(message, 'login_code', sender)).rejects.toMatchObject({ statusCode: 502, code: 'email_rejected' });
    const [account, address, ...givenBack] = budgetWrites();
    expect(account.Key?.pk).toBe('RATE#reservedSignInCodesPerAccount#user-1');
    expect(address.Key?.pk).toBe('RATE#reservedMailsPerIp#203.0.113.9');
    expect(givenBack).toEqual([
      expect.objectContaining({
        Key: account.Key,
        UpdateExpression: 'ADD #count :minus',
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      }),
      expect.objectContaining({ Key: address.Key, UpdateExpression: 'ADD #count :minus' }),
    ]);
    // a reserved mail never asks SES for the account's figures
    expect(ses.commandCalls(GetAccountCommand)).toHaveLength(0);
  });

  it('keeps the mail counted when it went out', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    await deliver(message, 'login_code', sender);
    expect(budgetWrites()).toHaveLength(2);
  });

  it("gives an open mail back to the minute's shard it was taken from", async () => {
    ses.on(SendEmailCommand).rejects(new MessageRejected({ message: 'rejected', $metadata: {} }));
    await expect(deliver({ ...message, subject: 'Verify' }, 'verification', { account: 'user-1' })).rejects.toMatchObject({
      code: 'email_rejected',
    });
    const [taken, givenBack] = budgetWrites();
    expect(taken.Key?.pk).toMatch(/^RATE#mail_open#[0-7]$/);
    expect(givenBack).toMatchObject({ Key: taken.Key, UpdateExpression: 'ADD #count :minus' });
    expect(budgetWrites()).toHaveLength(2);
  });

  it('still answers the send failure when the window rolled over and there is nothing to give back', async () => {
    ses.on(SendEmailCommand).rejects(new MessageRejected({ message: 'rejected', $metadata: {} }));
    dynamo.on(UpdateCommand).resolvesOnce({}).resolvesOnce({}).rejects(full());
    await expect(deliver(message, 'login_code', sender)).rejects.toMatchObject({ code: 'email_rejected' });
  });
});
