import {
  GetAccountCommand,
  LimitExceededException,
  SendEmailCommand,
  SESv2Client,
  SESv2ServiceException,
  TooManyRequestsException,
} from '@aws-sdk/client-sesv2';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { freePort, startSesLocal } from './processes';
import { sendOf } from './ses-front';

/**
 * The local SES's limits as the AWS SDK sees them: the error classes (the SDK's retry decision
 * reads their names), statuses and messages of SES v2, SES v1's XML, and GetAccount's counters.
 */
let endpoint: string;
let close: () => Promise<void>;
let client: SESv2Client;

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
  const port = await freePort();
  ({ close } = await startSesLocal(port, '127.0.0.1', { maxSendRate: 2, max24HourSend: 4 }));
  endpoint = `http://127.0.0.1:${port}`;
  // aws-ses-v2-local keeps one store per process, whichever instance received the mail
  await fetch(`${endpoint}/clear-store`, { method: 'POST' });
  // One attempt: the refusals themselves, not the SDK's retries of them.
  client = new SESv2Client({
    endpoint,
    region: 'us-east-1',
    maxAttempts: 1,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
});
afterEach(async () => {
  client.destroy();
  await close();
  vi.useRealTimers();
});

const later = (ms: number) => vi.setSystemTime(Date.now() + ms);
const mail = (to: string[] = ['ada@example.com']) =>
  new SendEmailCommand({
    FromEmailAddress: 'no-reply@example.com',
    Destination: { ToAddresses: to },
    Content: { Simple: { Subject: { Data: 'Hi' }, Body: { Text: { Data: 'Hello' } } } },
  });
const refusalOf = (command: SendEmailCommand) =>
  client.send(command).then(
    () => undefined,
    (error: unknown) => error as SESv2ServiceException,
  );
const stored = async () => ((await (await fetch(`${endpoint}/store`)).json()) as { emails: unknown[] }).emails.length;
const sentLast24Hours = async () => (await client.send(new GetAccountCommand({}))).SendQuota?.SentLast24Hours;

describe('the local SES at its limits', () => {
  it('refuses a send over the rate with SES v2 TooManyRequestsException (429) "Maximum sending rate exceeded."', async () => {
    await client.send(mail());
    await client.send(mail());
    const refusal = await refusalOf(mail());
    expect(refusal).toBeInstanceOf(TooManyRequestsException);
    expect(refusal).toMatchObject({ name: 'TooManyRequestsException', message: 'Maximum sending rate exceeded.' });
    expect(refusal?.$metadata.httpStatusCode).toBe(429);
    expect(await stored()).toBe(2);
    later(500);
    await client.send(mail()); // one mail built up again
    expect(await refusalOf(mail())).toBeInstanceOf(TooManyRequestsException);
  });

  it('refuses a send over the 24-hour quota with LimitExceededException (400) "Daily message quota exceeded."', async () => {
    await client.send(mail(['a@example.com', 'b@example.com'])); // counts two recipients
    later(1_000);
    await client.send(mail());
    await client.send(mail());
    later(1_000);
    const refusal = await refusalOf(mail());
    expect(refusal).toBeInstanceOf(LimitExceededException);
    expect(refusal).toMatchObject({ name: 'LimitExceededException', message: 'Daily message quota exceeded.' });
    expect(refusal?.$metadata.httpStatusCode).toBe(400);
    expect(await sentLast24Hours()).toBe(4);
    later(24 * 3600 * 1000 - 2_000); // the two-recipient mail is 24 hours old
    await client.send(mail());
    expect(await sentLast24Hours()).toBe(3);
  });

  it('serves GetAccount: a production account with the limits and what was sent in the last 24 hours', async () => {
    await client.send(mail());
    const account = await client.send(new GetAccountCommand({}));
    expect(account).toMatchObject({
      ProductionAccessEnabled: true,
      SendingEnabled: true,
      EnforcementStatus: 'HEALTHY',
      SendQuota: { Max24HourSend: 4, MaxSendRate: 2, SentLast24Hours: 1 },
    });
  });

  it('answers an SES v1 send over the rate with the XML Throttling error', async () => {
    const v1 = () =>
      fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: 'AWS4-HMAC-SHA256 Credential=local/20300101/us-east-1/ses/aws4_request',
        },
        body: new URLSearchParams({
          Action: 'SendEmail',
          Source: 'no-reply@example.com',
          'Destination.ToAddresses.member.1': 'ada@example.com',
          'Message.Subject.Data': 'Hi',
          'Message.Body.Text.Data': 'Hello',
        }),
      });
    expect((await v1()).status).toBe(200);
    expect((await v1()).status).toBe(200);
    const refused = await v1();
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(
      /^<ErrorResponse xmlns="http:\/\/ses\.amazonaws\.com\/doc\/2010-12-01\/"><Error><Type>Sender<\/Type><Code>Throttling<\/Code><Message>Maximum sending rate exceeded\.<\/Message><\/Error><RequestId>[\w-]+<\/RequestId><\/ErrorResponse>$/,
    );
  });

  it('counts only sends SES accepted: an unsigned or malformed one uses no budget', async () => {
    const unsigned = await fetch(`${endpoint}/v2/email/outbound-emails`, { method: 'POST', body: '{}' });
    expect(unsigned.status).toBe(403);
    const malformed = await refusalOf(
      new SendEmailCommand({ FromEmailAddress: 'no-reply@example.com', Destination: { ToAddresses: ['ada@example.com'] }, Content: {} }),
    );
    expect(malformed?.$metadata.httpStatusCode).toBe(400);
    expect(await sentLast24Hours()).toBe(0);
    await client.send(mail());
    await client.send(mail());
    expect(await stored()).toBe(2);
  });
});

describe('sendOf', () => {
  const json = (value: unknown) => Buffer.from(JSON.stringify(value));
  it('counts the recipients of a send as SES does: To, Cc and Bcc, every bulk entry, SES v1 members', () => {
    const destination = { ToAddresses: ['a@x.org', 'b@x.org'], CcAddresses: ['c@x.org'], BccAddresses: ['d@x.org'] };
    expect(sendOf('POST', '/v2/email/outbound-emails', json({ Destination: destination }))).toEqual({ api: 'v2', recipients: 4 });
    expect(
      sendOf(
        'POST',
        '/v2/email/outbound-bulk-emails',
        json({ BulkEmailEntries: [{ Destination: destination }, { Destination: { ToAddresses: ['e@x.org'] } }] }),
      ),
    ).toEqual({ api: 'v2', recipients: 5 });
    const v1 = new URLSearchParams({
      Action: 'SendEmail',
      'Destination.ToAddresses.member.1': 'a@x.org',
      'Destination.BccAddresses.member.1': 'b@x.org',
    });
    expect(sendOf('POST', '/', Buffer.from(v1.toString()))).toEqual({ api: 'v1', recipients: 2 });
    expect(sendOf('POST', '/', Buffer.from('Action=SendRawEmail&RawMessage.Data=eA'))).toEqual({ api: 'v1', recipients: 1 });
  });

  it('is not a send: another call, another method, or a body that is not JSON', () => {
    expect(sendOf('GET', '/v2/email/account', Buffer.alloc(0))).toBeUndefined();
    expect(sendOf('POST', '/v2/email/templates', json({ TemplateName: 't' }))).toBeUndefined();
    expect(sendOf('POST', '/', Buffer.from('Action=GetSendQuota'))).toBeUndefined();
    expect(sendOf('POST', '/v2/email/outbound-emails', Buffer.from('{'))).toBeUndefined();
  });
});
