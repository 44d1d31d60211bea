import { beforeAll, expect, it } from 'vitest';
import { hashPassword } from '../../functions/accounts/passwords';
import { forEachBounded } from '../../functions/lib/bounded';
import { insertUser } from '../../functions/lib/users';
import { runReminders } from '../../functions/program/reminders';
import { runAs } from '../../infra/local/iam/twin';
import { codeIn, latestEmail, useApi } from './api';
import { seedDueLearners, UTC_LEARNERS_HOUR } from './due-learners';
import { sendMailThrough, useSesAccount } from './ses';

/**
 * The two mail streams under one SES account's enforced send rate (docs/scale-writes.md#two-mail-streams):
 * the reminder job mails `due` learners on the bulk stream while `signIns` learners sign in, each
 * needing a code mail on the transactional stream. Bulk keeps to its share of the rate (read with
 * GetAccount), so no code mail waits behind the reminders and every sign-in succeeds. Defines the
 * file's setup and its one test (the integration suite and the benchmark run it at their sizes).
 */
export interface MailMix {
  due: number;
  signIns: number;
  /** The account's enforced send rate (mails per second). */
  maxSendRate: number;
  /** Reminder slices at once, each at its part of the bulk share. */
  workers: number;
  timeoutMs: number;
}

const PASSWORD = 'a quiet harbour at dusk';
const DAY = 24 * 3600 * 1000;

export function defineMailMix({ due, signIns, maxSendRate, workers, timeoutMs }: MailMix): void {
  const api = useApi();
  const account = useSesAccount({ maxSendRate, max24HourSend: 50_000 });
  const signers = Array.from({ length: signIns }, (_, i) => `stream-signer-${i}@example.com`);

  beforeAll(async () => {
    sendMailThrough(account);
    await seedDueLearners(due, new Date(Date.now() - 2 * DAY).toISOString(), 'stream-due');
    const passwordHash = await hashPassword(PASSWORD);
    await forEachBounded(signers, 8, async (email) => {
      await insertUser({ email, first_name: 'Ada', last_name: 'Byron', password_hash: passwordHash, verified: true });
    });
  }, timeoutMs);

  /** Password, then the mailed code: the status of the last step (200 when signed in). */
  async function signInWithCode(email: string, index: number): Promise<number> {
    const client = api.client({ ip: `198.51.100.${(index % 250) + 1}` });
    const step1 = await client.post('/api/auth/login', { email, password: PASSWORD });
    if (step1.status !== 200) return step1.status;
    const code = codeIn(await latestEmail(email, /login code/i, account.endpoint));
    const step2 = await client.post('/api/auth/verify-2fa', { email, code, challenge_id: step1.body.challenge_id });
    return step2.status;
  }

  it(
    `signs in ${signIns} learners with their codes while reminders to ${due.toLocaleString('en-US')} run, and still sends every reminder`,
    async () => {
      let remindersSent = 0;
      let firstReminder!: () => void;
      const started = new Promise<void>((resolve) => (firstReminder = resolve));
      const job = runAs('reminderWorker', () =>
        runReminders({
          workers,
          hour: UTC_LEARNERS_HOUR,
          onSent: () => {
            remindersSent += 1;
            firstReminder();
          },
        }),
      );

      await started;
      const statuses: number[] = [];
      /** Reminders sent when each sign-in was done: the two streams ran side by side. */
      const remindersAtSignIn: number[] = [];
      await forEachBounded(
        signers.map((email, index) => ({ email, index })),
        10,
        async ({ email, index }) => {
          statuses.push(await signInWithCode(email, index));
          remindersAtSignIn.push(remindersSent);
        },
      );

      expect(statuses).toEqual(Array.from({ length: signIns }, () => 200));
      // the first learners were in while the reminder job was still sending
      expect(Math.min(...remindersAtSignIn)).toBeLessThan(due);
      expect(await job).toEqual({ considered: due, sent: due, skipped: 0, failed: 0 });
      // every accepted mail counted once against the account: the reminders and one code per sign-in
      expect(await account.sentLast24Hours()).toBe(due + signIns);
    },
    timeoutMs,
  );
}
