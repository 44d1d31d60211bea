import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { MessageRejected, SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { deliver } from './deliver';

/** The hourly mail budget (../mail-budget.ts) pays only for mails that went out. */
const dynamo = mockClient(DynamoDBDocumentClient);
const ses = mockClient(SESv2Client);
afterAll(() => {
  dynamo.restore();
  ses.restore();
});
beforeEach(() => {
  dynamo.reset();
  ses.reset();
  dynamo.on(UpdateCommand).resolves({});
});

const message = { to: 'learner@example.com', subject: 'Your login code', text: 'code', html: '<p>code</p>' };
const budgetWrites = () => dynamo.commandCalls(UpdateCommand).map((call) => call.args[0].input);

describe('deliver and the mail budget', () => {
  it('gives the mail back to the shard it was taken from when SES refuses the send', async () => {
    ses.on(SendEmailCommand).rejects(new MessageRejected({ message: 'rejected', $metadata: {} }));
    await expect(deliver(message, 'login_code')).rejects.toMatchObject({ statusCode: 502, code: 'email_rejected' });
    const [taken, givenBack] = budgetWrites();
    expect(taken.UpdateExpression).toContain('ADD #count :one');
    expect(givenBack).toMatchObject({ Key: taken.Key, UpdateExpression: 'ADD #count :minus', ExpressionAttributeValues: { ':minus': -1 } });
    expect(budgetWrites()).toHaveLength(2);
  });

  it('keeps the mail counted when it went out', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    await deliver(message, 'login_code');
    expect(budgetWrites()).toHaveLength(1);
  });

  it('still answers the send failure when the hour rolled over and there is nothing to give back', async () => {
    ses.on(SendEmailCommand).rejects(new MessageRejected({ message: 'rejected', $metadata: {} }));
    dynamo
      .on(UpdateCommand)
      .resolvesOnce({})
      .rejectsOnce(new ConditionalCheckFailedException({ message: 'no count', $metadata: {} }));
    await expect(deliver(message, 'login_code')).rejects.toMatchObject({ code: 'email_rejected' });
  });
});
