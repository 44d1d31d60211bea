import { GetAccountCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readBulkBudget } from './bulk-budget';
import { resetConfigForTests } from './config';
import { resetSesClientForTests } from './email';

const ses = mockClient(SESv2Client);
const account = (sentLast24Hours: number) =>
  ses.on(GetAccountCommand).resolves({ SendQuota: { MaxSendRate: 14, Max24HourSend: 50_000, SentLast24Hours: sentLast24Hours } });

beforeEach(() => {
  ses.reset();
  resetConfigForTests();
  resetSesClientForTests();
});
afterEach(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
});
afterAll(() => ses.restore());

describe('readBulkBudget', () => {
  it('gives bulk half the account by default, split between the workers', async () => {
    account(0);
    expect(await readBulkBudget(2)).toEqual({ ratePerSecond: 3.5, mails: 12_500 });
  });

  it('counts the mail of both streams sent in the last 24 hours against the bulk share', async () => {
    account(20_000);
    expect(await readBulkBudget(1)).toEqual({ ratePerSecond: 7, mails: 5_000 });
    account(30_000); // transactional mail alone took more than the bulk share: bulk sends nothing
    expect((await readBulkBudget(1)).mails).toBe(0);
  });

  it('takes the share from BULK_SEND_SHARE', async () => {
    vi.stubEnv('BULK_SEND_SHARE', '20');
    account(0);
    const budget = await readBulkBudget(1);
    expect(budget.ratePerSecond).toBeCloseTo(2.8);
    expect(budget.mails).toBe(10_000);
  });
});
