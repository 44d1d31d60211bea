import { GetAccountCommand, SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll } from 'vitest';
import { resetConfigForTests } from '../../functions/lib/config';
import { resetSesClientForTests } from '../../functions/lib/email';
import { freePort, startSesLocal } from '../../infra/local/processes';
import type { SesLimits } from '../../infra/local/ses-limits';

/**
 * An SES account of a test file's own: a local SES with the limits the file needs, on a free
 * port, in the file's process. The run's shared local SES keeps a new production account's
 * limits for every other file; a file that drains an account here drains nobody else's.
 */
export interface SesAccount {
  readonly endpoint: string;
  /** Spends `mails` of the account's budgets with sends of its own (to no test address). */
  spend: (mails: number) => Promise<void>;
  sentLast24Hours: () => Promise<number>;
}

/** Starts a local SES with `limits` before the file's tests and closes it after them. */
export function useSesAccount(limits: SesLimits): SesAccount {
  let started: { endpoint: string; client: SESv2Client; close: () => Promise<void> } | undefined;
  beforeAll(async () => {
    const port = await freePort();
    const { close } = await startSesLocal(port, '127.0.0.1', limits);
    const endpoint = `http://127.0.0.1:${port}`;
    // No retries: spending counts exactly the mails asked for.
    const client = new SESv2Client({
      endpoint,
      region: 'us-east-1',
      maxAttempts: 1,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    started = { endpoint, client, close };
  });
  afterAll(async () => {
    started?.client.destroy();
    await started?.close();
  });
  const running = () => {
    if (!started) throw new Error('the SES account starts in beforeAll');
    return started;
  };
  return {
    get endpoint() {
      return running().endpoint;
    },
    spend: async (mails) => {
      // up to 50 recipients a send (SES's limit), each counted as a mail
      for (let left = mails; left > 0; left -= 50) {
        await running().client.send(
          new SendEmailCommand({
            FromEmailAddress: 'budget@example.com',
            Destination: { ToAddresses: Array.from({ length: Math.min(50, left) }, (_, i) => `budget-${i}@example.com`) },
            Content: { Simple: { Subject: { Data: 'spending the budget' }, Body: { Text: { Data: '-' } } } },
          }),
        );
      }
    },
    sentLast24Hours: async () => (await running().client.send(new GetAccountCommand({}))).SendQuota?.SentLast24Hours ?? 0,
  };
}

/** Points the product's mail (SES_ENDPOINT, read once per process) at `account` from now on. */
export function sendMailThrough(account: Pick<SesAccount, 'endpoint'>): void {
  process.env.SES_ENDPOINT = account.endpoint;
  resetConfigForTests();
  resetSesClientForTests();
}
