import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runErasure } from '../../functions/admin/erasure';
import { erasureBacklogDays } from '../../functions/admin/erasure-backlog';
import { runPurgeMessage } from '../../functions/jobs/purge';
import { dayOf } from '../../functions/lib/activity';
import { batchWriteItems } from '../../functions/lib/batch-items';
import { forEachBounded } from '../../functions/lib/bounded';
import { capacityMeter } from '../../functions/lib/db';
import { keys } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { userIndexKeys } from '../../functions/lib/users';
import { program } from '../../functions/program/content';
import { newEnrollment } from '../../functions/program/enroll';
import { runAs } from '../../infra/local/iam/twin';
import { STACK_DEFAULTS } from '../../infra/stack-defaults';
import { holdPurgeMessages } from '../helpers/hard-delete';

/**
 * `npm run bench:erasure` (docs/scale-writes.md#erasure-at-scale): 2,000 accounts past their
 * retention (BENCH_ACCOUNTS), written straight to the table as a soft-delete leaves them (profile
 * in the erasure index, email guard, enrollment, a session, two activity days). The daily erasure
 * runs with a Lambda's 15 minutes (rerun while unfinished: each run is one day's), then the purge
 * worker drains the queue with the stack's purge worker concurrency. Prints the runs needed,
 * accounts per minute of each part and the capacity per account.
 */
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 2_000);
const RUN_MS = STACK_DEFAULTS.workerTimeoutMinutes * 60_000;
const DAY_MS = 24 * 3600 * 1000;

function accountItems(index: number, deletedAt: string): Record<string, unknown>[] {
  const email = `erase-${index}@example.com`;
  const user: UserRecord = {
    id: randomUUID(),
    email,
    email_lower: email,
    first_name: `Erase${index}`,
    last_name: 'Learner',
    password_hash: 'not-a-real-hash',
    role: 'learner',
    verified: true,
    status: 'deleted',
    deleted_at: deletedAt,
    is_locked: false,
    session_version: 0,
    reminder_frequency: 'daily',
    created_at: deletedAt,
    updated_at: deletedAt,
    version: 2,
  };
  const activityDays = [1, 2].map((daysBefore) => dayOf(new Date(Date.parse(deletedAt) - daysBefore * DAY_MS)));
  return [
    { ...keys.user(user.id), type: 'user', ...userIndexKeys(user), ...user },
    { ...keys.email(email), type: 'email', user_id: user.id },
    newEnrollment(user.id, program(), deletedAt),
    { ...keys.session(user.id, 's-1'), type: 'session', user_id: user.id },
    ...activityDays.map((day) => ({ ...keys.activity(day, user.id), type: 'activity', user_id: user.id, day })),
  ];
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const perAccount = (cost: { read: number; write: number; calls: number }) => ({
  read_units: round(cost.read / ACCOUNTS),
  write_units: round(cost.write / ACCOUNTS),
  calls: round(cost.calls / ACCOUNTS),
});

describe('erasure at scale', () => {
  it(
    `erases ${ACCOUNTS.toLocaleString('en-US')} due accounts through the purge queue`,
    async () => {
      const now = new Date();
      const deletedAt = new Date(now.getTime() - (STACK_DEFAULTS.retentionDays + 1) * DAY_MS).toISOString();
      const seedStart = Date.now();
      const batches = Array.from({ length: Math.ceil(ACCOUNTS / 4) }, (_, batch) => batch * 4);
      await forEachBounded(batches, 16, async (start) => {
        const items = Array.from({ length: Math.min(4, ACCOUNTS - start) }, (_, i) => accountItems(start + i, deletedAt)).flat();
        await batchWriteItems(items.map((Item) => ({ PutRequest: { Item } })));
      });
      const seedSeconds = (Date.now() - seedStart) / 1000;
      const purges = holdPurgeMessages();

      // the daily runs, each with a Lambda's time, until the day's run has finished
      capacityMeter.reset();
      const queueStart = Date.now();
      let runs = 0;
      let queued = 0;
      for (let finished = false; !finished; runs++) {
        const runStart = Date.now();
        const result = await runAs('erasure', () => runErasure({ now, timeLeftMs: () => RUN_MS - (Date.now() - runStart) }));
        expect(result.failed).toBe(0);
        queued += result.queued;
        finished = result.finished;
      }
      const queueSeconds = (Date.now() - queueStart) / 1000;
      const queueCost = capacityMeter.snapshot();
      expect(queued).toBe(ACCOUNTS);
      const messages = await purges.queued();
      expect(messages).toHaveLength(ACCOUNTS);

      // the purge workers: as many at once as the purge queue's event source allows
      capacityMeter.reset();
      const drainStart = Date.now();
      await forEachBounded(messages, STACK_DEFAULTS.purgeWorkers, (message) => runAs('purge', () => runPurgeMessage(message)));
      const drainSeconds = (Date.now() - drainStart) / 1000;
      const drainCost = capacityMeter.snapshot();
      // nothing waits in the erasure index: the backlog gauge reads 0
      expect(await erasureBacklogDays(now)).toBe(0);
      // every purge finished: no continuation was queued
      expect(await purges.queued()).toHaveLength(ACCOUNTS);

      const report = {
        accounts: ACCOUNTS,
        seed_seconds: Math.round(seedSeconds),
        erasure_runs_needed: runs,
        erasure_run_seconds: round(queueSeconds, 1),
        queued_per_minute: Math.round((ACCOUNTS / queueSeconds) * 60),
        erasure_run_per_account: perAccount(queueCost),
        purge_workers: STACK_DEFAULTS.purgeWorkers,
        purge_drain_seconds: round(drainSeconds, 1),
        purged_per_minute: Math.round((ACCOUNTS / drainSeconds) * 60),
        purge_per_account: perAccount(drainCost),
      };
      console.log(`erasure benchmark ${JSON.stringify(report, null, 2)}`);
    },
    3 * 3600 * 1000,
  );
});
