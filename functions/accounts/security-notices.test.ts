import { MessageRejected, SESv2Client, SendEmailCommand, TooManyRequestsException } from '@aws-sdk/client-sesv2';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { sendSecurityNotice } from './security-notices';

/**
 * A security notice reports a change that already happened: an SES failure must not undo or fail
 * it, and a notice that cannot go out now waits (NOTICE#deferred) instead of being dropped.
 */
const ses = mockClient(SESv2Client);
// the per-account notice limit and the mail budget's counters
const dynamo = mockClient(DynamoDBDocumentClient);
afterAll(() => {
  ses.restore();
  dynamo.restore();
});
beforeEach(() => {
  ses.reset();
  dynamo.reset();
  dynamo.on(UpdateCommand).resolves({});
  dynamo.on(PutCommand).resolves({});
});

const user = { id: 'user-1', email: 'ada@example.com', first_name: 'Ada' };
/** `expect.objectContaining` is typed `any`: held as `unknown` so the objects it goes into stay type-checked. */
const noticeOf = (fields: Record<string, unknown>): unknown => expect.objectContaining(fields);
const deferred = () => dynamo.commandCalls(PutCommand).map((call) => call.args[0].input.Item);
const caller = { ip: '203.0.113.9', userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' };

describe('sendSecurityNotice', () => {
  it("sends the notice with the device and address of the caller, and the passkey's removal link", async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    await sendSecurityNotice(user, 'passkey_added', caller, { passkeyName: 'Phone', passkeyId: 'a'.repeat(43) });
    const sent = ses.commandCalls(SendEmailCommand)[0].args[0].input;
    expect(sent.Destination?.ToAddresses).toEqual(['ada@example.com']);
    expect(sent.Content?.Simple?.Subject?.Data).toBe('A passkey was added to your account');
    expect(sent.Content?.Simple?.Body?.Text?.Data).toContain('Device: Firefox on Linux');
    expect(sent.Content?.Simple?.Body?.Text?.Data).toContain('Location (IP address): 203.0.113.9');
    expect(sent.Content?.Simple?.Body?.Text?.Data).toMatch(/\nTime: \d{4}-\d\d-\d\d \d\d:\d\d UTC\n/);
    expect(sent.Content?.Simple?.Body?.Text?.Data).toMatch(/\/passkey-removal\?token=[\w.-]+/);
    expect(sent.Content?.Simple?.Body?.Html?.Data).toMatch(/<a href="http[^"]+\/settings"[^>]*>Review your security<\/a>/);
    expect(deferred()).toEqual([]);
  });

  it("gives the time in the account's time zone when it has one", async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-3' });
    await sendSecurityNotice({ ...user, time_zone: 'Asia/Tokyo' }, 'new_sign_in', caller);
    const text = ses.commandCalls(SendEmailCommand)[0].args[0].input.Content?.Simple?.Body?.Text?.Data;
    expect(text).toMatch(/\nTime: \d{4}-\d\d-\d\d \d\d:\d\d \(Asia\/Tokyo\)\n/);
  });

  it('goes to another address when asked (the old address after an email change)', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-2' });
    await sendSecurityNotice(user, 'email_changed_old', caller, { to: 'old@example.com', otherEmail: 'ada@example.com' });
    expect(ses.commandCalls(SendEmailCommand)[0].args[0].input.Destination?.ToAddresses).toEqual(['old@example.com']);
  });

  it("defers the notice, without throwing, once the account had the hour's notices", async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-4' });
    dynamo.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'full', $metadata: {} }));
    await expect(sendSecurityNotice(user, 'password_changed', caller)).resolves.toBeUndefined();
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    const limit = dynamo.commandCalls(UpdateCommand)[0].args[0].input;
    expect(limit.Key?.pk).toBe('RATE#securityNoticesPerAccount#ada@example.com');
    expect(deferred()).toEqual([
      expect.objectContaining({
        pk: 'NOTICE#deferred',
        user_id: 'user-1',
        reason: 'account_hour',
        notice: noticeOf({ event: 'password_changed', ip: '203.0.113.9', device: 'Firefox on Linux' }),
      }),
    ]);
  });

  it('defers the notice when SES throttles; logs and keeps nothing when SES rejects the address for good', async () => {
    ses.on(SendEmailCommand).rejects(new MessageRejected({ message: 'rejected', $metadata: {} }));
    await expect(sendSecurityNotice(user, 'password_changed', caller)).resolves.toBeUndefined();
    expect(deferred()).toEqual([]);
    ses.on(SendEmailCommand).rejects(new TooManyRequestsException({ message: 'Maximum sending rate exceeded.', $metadata: {} }));
    await expect(sendSecurityNotice(user, 'new_sign_in', caller)).resolves.toBeUndefined();
    expect(ses.commandCalls(SendEmailCommand).length).toBeGreaterThanOrEqual(2);
    expect(deferred()).toEqual([expect.objectContaining({ reason: 'mail_unavailable', notice: noticeOf({ event: 'new_sign_in' }) })]);
  });
});
