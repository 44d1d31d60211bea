import { GetAccountCommand, SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, describe, expect, it } from 'vitest';
import { capacityMeter, db, tableName } from '../../functions/lib/db';
import { runReminders } from '../../functions/program/reminders';
import { seedDueLearners } from '../helpers/due-learners';

/**
 * `npm run bench:reminders` (docs/scale-writes.md): 100,000 due learners in DynamoDB Local
 * (BENCH_LEARNERS; `npm test` runs the same check at 5,000 to stay within its time), SES answering instantly (a stub), the reminder slices run by
 * the same worker code as in the cloud, unpaced, REMINDER_BENCH_WORKERS slices at once
 * (default 4). Prints learners per second on this machine, the capacity per learner, and the
 * time the stack needs for 1,000,000 learners at SES rates of 14/s and 200/s.
 */
const LEARNERS = Number(process.env.BENCH_LEARNERS ?? 5_000);
const WORKERS = Number(process.env.REMINDER_BENCH_WORKERS ?? 4);
const ses = mockClient(SESv2Client);
afterAll(() => ses.restore());

const hours = (seconds: number) => `${(seconds / 3600).toFixed(1)} h`;

describe('reminders at scale', () => {
  it(
    `sends to ${LEARNERS.toLocaleString('en-US')} due learners once each`,
    async () => {
      ses.on(SendEmailCommand).resolves({ MessageId: 'bench' });
      // an account large enough that its bulk share never stops the run
      ses.on(GetAccountCommand).resolves({ SendQuota: { MaxSendRate: 1_000_000, Max24HourSend: 100_000_000, SentLast24Hours: 0 } });
      const now = new Date();
      const seedStart = Date.now();
      await seedDueLearners(LEARNERS, new Date(now.getTime() - 2 * 24 * 3600 * 1000).toISOString());
      const seedSeconds = (Date.now() - seedStart) / 1000;

      capacityMeter.reset();
      const start = Date.now();
      const summary = await runReminders({ now, ratePerSecond: 1_000_000, workers: WORKERS, sleep: async () => {} });
      const seconds = (Date.now() - start) / 1000;
      const cost = capacityMeter.snapshot();

      expect(summary).toEqual({ considered: LEARNERS, sent: LEARNERS, skipped: 0, failed: 0 });
      expect(ses.commandCalls(SendEmailCommand)).toHaveLength(LEARNERS);
      // a rerun the same day sends nothing (every slice checkpointed done)
      expect(await runReminders({ now, ratePerSecond: 1_000_000, workers: WORKERS })).toEqual({
        considered: 0,
        sent: 0,
        skipped: 0,
        failed: 0,
      });
      // one once-a-day marker per learner (spot check of one slice's partition)
      const some = await db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi3',
          KeyConditionExpression: 'gsi3pk = :p',
          ExpressionAttributeValues: { ':p': 'REMIND#daily#09#0' }, // UTC learners: the 09:00 UTC partitions
          Limit: 5,
        }),
      );
      expect(some.Items?.length).toBeGreaterThan(0);

      const perSecond = LEARNERS / seconds;
      const million = 1_000_000;
      const report = {
        learners: LEARNERS,
        workers: WORKERS,
        seed_seconds: Math.round(seedSeconds),
        run_seconds: Math.round(seconds * 10) / 10,
        learners_per_second_here: Math.round(perSecond),
        read_units_per_learner: Math.round((cost.read / LEARNERS) * 100) / 100,
        write_units_per_learner: Math.round((cost.write / LEARNERS) * 100) / 100,
        calls_per_learner: Math.round((cost.calls / LEARNERS) * 100) / 100,
        // the stack is bound by SES's send rate whenever the workers process faster than it
        one_million_at_14_per_second: hours(million / Math.min(14, perSecond)),
        one_million_at_200_per_second: hours(million / Math.min(200, perSecond)),
      };
      console.log(`reminders benchmark ${JSON.stringify(report, null, 2)}`);
    },
    3 * 3600 * 1000,
  );
});
