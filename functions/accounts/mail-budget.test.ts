import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetAccountCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readConfig, resetConfigForTests } from '../lib/config';
import { resetSesClientForTests } from '../lib/email';
import { MailBudgetRefused, openShare, takeFromMailBudget } from './mail-budget';

/**
 * The mail budget's classes (docs/security.md#outbound-mail-budget): reserved mail within its
 * allowances never asks the SES account; everything else is open mail, refused once the quota
 * is used up to the reserved share or the minute's share of the send rate is spent.
 */
const dynamo = mockClient(DynamoDBDocumentClient);
const ses = mockClient(SESv2Client);
afterAll(() => {
  dynamo.restore();
  ses.restore();
});
const full = () => new ConditionalCheckFailedException({ message: 'full', $metadata: {} });
const account = (sent: number, rate = 14) =>
  ses.on(GetAccountCommand).resolves({ SendQuota: { Max24HourSend: 50_000, MaxSendRate: rate, SentLast24Hours: sent } });
/** The counters written, by partition: a window full in `full` refuses (nothing written). */
function counters(fullPartitions: RegExp[] = []) {
  dynamo.on(UpdateCommand).callsFake((input: { Key: { pk: string } }) => {
    if (fullPartitions.some((pattern) => pattern.test(input.Key.pk))) throw full();
    return {};
  });
}
const written = () => dynamo.commandCalls(UpdateCommand).map((call) => call.args[0].input);

beforeEach(() => {
  dynamo.reset();
  ses.reset();
  resetSesClientForTests();
  resetConfigForTests();
  account(0);
  counters();
});
afterEach(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
});

const sender = { account: 'user-1', ip: '2001:db8:7:12::5' };

describe('openShare', () => {
  it("is what bulk (50 %) and the reserved share (20 %) leave of a new production account's rate, up to 80 % of its quota", () => {
    expect(openShare({ max24HourSend: 50_000, maxSendRate: 14 }, readConfig({ SESSION_SECRET: 'x'.repeat(32) }))).toEqual({
      quotaUse: 40_000,
      perMinute: 252,
    });
  });

  it('follows the stage shares and the account, and lets a very slow account send one a minute', () => {
    const cfg = readConfig({ SESSION_SECRET: 'x'.repeat(32), BULK_SEND_SHARE: '40', MAIL_RESERVED_SHARE: '30' });
    expect(openShare({ max24HourSend: 1_000_000, maxSendRate: 100 }, cfg)).toEqual({ quotaUse: 700_000, perMinute: 1_800 });
    expect(openShare({ max24HourSend: 200, maxSendRate: 0.001 }, cfg).perMinute).toBe(1);
  });

  it('refuses shares that leave nothing between bulk and the reserved mail', () => {
    expect(() => readConfig({ SESSION_SECRET: 'x'.repeat(32), BULK_SEND_SHARE: '80', MAIL_RESERVED_SHARE: '20' })).toThrow(/less than 100/);
    expect(() => readConfig({ SESSION_SECRET: 'x'.repeat(32), MAIL_RESERVED_SHARE: '95' })).toThrow(/MAIL_RESERVED_SHARE/);
  });
});

describe('takeFromMailBudget', () => {
  it("takes a sign-in code from the account's and the /56's allowances, without asking SES", async () => {
    await takeFromMailBudget('login_code', sender);
    expect(written().map((input) => String(input.Key?.pk))).toEqual([
      'RATE#reservedSignInCodesPerAccount#user-1',
      'RATE#reservedMailsPerIp#2001:db8:7:0::/56',
    ]);
    expect(ses.commandCalls(GetAccountCommand)).toHaveLength(0);
  });

  it("takes a notice from the account's allowance alone: the actor's address is not the owner's", async () => {
    await takeFromMailBudget('security_notice', sender);
    expect(written().map((input) => String(input.Key?.pk))).toEqual(['RATE#reservedNoticesPerAccount#user-1']);
  });

  it('a code whose /56 has spent its allowance is open mail; the account keeps its own allowance', async () => {
    counters([/^RATE#reservedMailsPerIp#/]);
    await takeFromMailBudget('login_code', sender);
    const [fromAccount, , givenBack, open] = written();
    expect(givenBack).toMatchObject({ Key: fromAccount.Key, UpdateExpression: 'ADD #count :minus' });
    expect(open.Key?.pk).toMatch(/^RATE#mail_open#\d$/);
    expect(ses.commandCalls(GetAccountCommand)).toHaveLength(1);
  });

  it('a verification code is open mail, refused with 503 email_unavailable once the quota is used up to the reserved share', async () => {
    account(39_999);
    await takeFromMailBudget('verification', { account: 'user-2' });
    resetSesClientForTests();
    account(40_000);
    const refusal = takeFromMailBudget('verification', { account: 'user-2' });
    await expect(refusal).rejects.toBeInstanceOf(MailBudgetRefused);
    await expect(refusal).rejects.toMatchObject({
      statusCode: 503,
      code: 'email_unavailable',
      reason: 'quota',
      headers: { 'Retry-After': '60' },
    });
    // while a sign-in code within its allowances still goes
    await expect(takeFromMailBudget('login_code', sender)).resolves.toBeTypeOf('function');
  });

  it("refuses open mail once the minute's share of the send rate is spent (the shard and its neighbour full)", async () => {
    counters([/^RATE#mail_open#/, /^RATE#reservedNoticesPerAccount#/]);
    const refusal = takeFromMailBudget('security_notice', sender);
    await expect(refusal).rejects.toMatchObject({ code: 'email_unavailable', reason: 'rate' });
    const retryAfter = Number(((await refusal.catch((error: unknown) => error)) as MailBudgetRefused).headers['Retry-After']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // 252 a minute over 8 shards: 32 each
    expect(
      written()
        .filter((input) => /mail_open/.test(String(input.Key?.pk)))
        .map((input) => Number(input.ExpressionAttributeValues?.[':limit'])),
    ).toEqual([32, 32]);
  });

  it('sends open mail without a share when GetAccount cannot be read (SES still enforces its own limits)', async () => {
    ses.on(GetAccountCommand).rejects(Object.assign(new Error('denied'), { name: 'AccessDeniedException' }));
    await expect(takeFromMailBudget('verification', { account: 'user-3' })).resolves.toBeTypeOf('function');
    expect(written()).toEqual([]);
  });
});
