import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { reconcileCounters } from '../../functions/admin/counter-reconcile';
import { rebuildDerivedData } from '../../functions/admin/derived-data-rebuild';
import { dayOf } from '../../functions/lib/activity';
import { auditItems } from '../../functions/lib/audit';
import { batchWriteItems } from '../../functions/lib/batch-items';
import { forEachBounded } from '../../functions/lib/bounded';
import { capacityMeter } from '../../functions/lib/db';
import { signInNote } from '../../functions/lib/sign-in-audit';
import { keys, STREAMED_REFERENCES } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { newUserItems } from '../../functions/lib/users';
import { program } from '../../functions/program/content';
import { newEnrollment } from '../../functions/program/enroll';
import { runAs } from '../../infra/local/iam/twin';

/**
 * `npm run bench:rebuild` (docs/runbook.md "Rebuilding derived data"): BENCH_ACCOUNTS accounts
 * (2,000 by default) written straight to the table as two days of an outage of the table's stream
 * leave them: half signed in during the window (their sessions with the sign-in note, their
 * `last_active_day`), a third enrolled with task answers, one in ten the subject of an audit entry
 * whose references are missing, none of it aggregated. Then the rebuild of the two days, its
 * rerun, and the daily reconciliation on its own, each with its DynamoDB Local consumed capacity
 * and time, per account.
 */
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 2_000);
const DAY_MS = 24 * 3600 * 1000;
const TODAY = dayOf(new Date());
const YESTERDAY = dayOf(new Date(Date.now() - DAY_MS));

function accountItems(index: number): Record<string, unknown>[] {
  const id = randomUUID();
  const email = `rebuild-${index}@example.com`;
  const active = index % 2 === 0;
  const day = index % 4 === 0 ? TODAY : YESTERDAY;
  const at = `${day}T08:${String(index % 60).padStart(2, '0')}:00.000Z`;
  const user: UserRecord = {
    id,
    email,
    email_lower: email,
    first_name: `Bench${index}`,
    last_name: 'Learner',
    password_hash: 'not-a-real-hash',
    role: 'learner',
    verified: index % 7 !== 0,
    status: index % 20 === 1 ? 'locked' : index % 20 === 3 ? 'deleted' : 'active',
    is_locked: false,
    session_version: 0,
    reminder_frequency: 'daily',
    created_at: `2026-01-01T00:00:${String(index % 60).padStart(2, '0')}.000Z`,
    updated_at: at,
    version: 1,
    ...(active ? { last_active_day: day, last_login_at: at } : {}),
    ...(index % 50 === 0 ? { reminders_paused_at: new Date(Date.now() - 30 * DAY_MS).toISOString() } : {}),
  };
  const { account, emailGuard, search } = newUserItems(user);
  // the search items as the outage left them: without the day the stream would have copied
  const items: Record<string, unknown>[] = [account, emailGuard, ...search.map(({ last_active_day: _, ...item }) => item)];
  if (active)
    items.push({
      ...keys.session(id, `s-${index}`),
      type: 'session',
      user_id: id,
      created_at: at,
      last_seen_at: at,
      ip: '198.51.100.7',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/141.0',
      ...signInNote(email, { method: 'password' }),
    });
  if (index % 3 === 0) {
    const enrollment = newEnrollment(id, program(), `${YESTERDAY}T07:00:00.000Z`);
    const module = program().modules[0];
    items.push(
      enrollment,
      ...module.tasks.slice(0, 3).map((task) => ({
        ...keys.taskAnswer(id, program().id, module.module_id, task.task_id),
        task_id: task.task_id,
        module_id: module.module_id,
        done: true,
        answer: 'My answer, written with care.',
        updated_at: `${YESTERDAY}T07:30:00.000Z`,
      })),
    );
  }
  if (index % 10 === 0) {
    // an entry written inside a transaction whose request stopped before putting its references
    const [entry] = auditItems(
      { action: 'admin.user.update', actor: { id: 'admin-1', email: 'admin@example.com' }, entityType: 'user', entityId: id },
      new Date(at),
    );
    items.push({ ...entry, [STREAMED_REFERENCES.attribute]: STREAMED_REFERENCES.value });
  }
  return items;
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const measured = (cost: { read: number; write: number; calls: number }, seconds: number) => ({
  seconds: round(seconds, 1),
  accounts_per_second: Math.round(ACCOUNTS / seconds),
  read_units: round(cost.read),
  write_units: round(cost.write),
  calls: cost.calls,
  per_account: {
    read_units: round(cost.read / ACCOUNTS, 3),
    write_units: round(cost.write / ACCOUNTS, 3),
    calls: round(cost.calls / ACCOUNTS, 2),
  },
});

describe('rebuild and reconciliation at scale', () => {
  it(
    `rebuilds two days of ${ACCOUNTS.toLocaleString('en-US')} accounts, reruns it, and reconciles them`,
    async () => {
      const batches = Array.from({ length: Math.ceil(ACCOUNTS / 4) }, (_, batch) => batch * 4);
      await forEachBounded(batches, 16, async (start) => {
        const items = Array.from({ length: Math.min(4, ACCOUNTS - start) }, (_, i) => accountItems(start + i)).flat();
        await batchWriteItems(items.map((Item) => ({ PutRequest: { Item } })));
      });

      const run = async () => {
        capacityMeter.reset();
        const started = performance.now();
        const result = await rebuildDerivedData({ from: YESTERDAY, to: TODAY });
        return { result, cost: measured(capacityMeter.snapshot(), (performance.now() - started) / 1000) };
      };
      const first = await run();
      const active = Math.ceil(ACCOUNTS / 2);
      expect(first.result.counts).toMatchObject({
        accounts: ACCOUNTS,
        sign_in_entries: active,
        activity_markers: expect.any(Number) as number,
      });
      expect(first.result.counts.audit_references).toBe(Math.ceil(ACCOUNTS / 10) * 4);
      expect(first.result.counts.search_items).toBe(active * 3);
      const second = await run();
      expect(second.result.counts).toMatchObject({
        sign_in_entries: 0,
        activity_markers: 0,
        audit_references: 0,
        search_items: 0,
        reminders_resumed: 0,
      });

      capacityMeter.reset();
      const started = performance.now();
      const reconciled = await runAs('reconcile', () => reconcileCounters({ correct: false }));
      const reconcileCost = measured(capacityMeter.snapshot(), (performance.now() - started) / 1000);
      expect(reconciled.accounts).toBe(ACCOUNTS);

      console.log(
        `rebuild benchmark ${JSON.stringify({ accounts: ACCOUNTS, counts: first.result.counts, rebuild: first.cost, rerun: second.cost, reconciliation: reconcileCost }, null, 2)}`,
      );
    },
    3 * 3600 * 1000,
  );
});
