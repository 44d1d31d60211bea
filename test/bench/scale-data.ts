import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { auditItem } from '../../functions/lib/audit';
import { batchWriteItems } from '../../functions/lib/batch-items';
import { db, tableName } from '../../functions/lib/db';
import { funnelField } from '../../functions/lib/funnel';
import { STATS_SHARDS, week1PendingIndexKeys } from '../../functions/lib/stats';
import { keys } from '../../functions/lib/table';
import type { UserRecord, UserStatus } from '../../functions/lib/user-record';
import { searchItems, userIndexKeys } from '../../functions/lib/users';
import { program } from '../../functions/program/content';

/**
 * Synthetic data for the admin read benchmarks, built with the product's own item and key
 * builders (the items insertUser, enroll, recordActivity and writeAudit write), loaded straight
 * into DynamoDB with parallel BatchWriteItem. Deterministic from the account number, so a run
 * can load 1,000 accounts, measure, then load the rest and measure again.
 *
 * Account i: status locked when i % 10 = 7, deleted when i % 10 = 3, else active; unverified
 * when i % 3 = 0; active on a day of the last 30 when i is even; enrolled 8–27 days ago, week 1
 * still pending (the drop-off cohort) when i is odd; one PROGRESS item. Audit: AUDIT_PER_ACCOUNT
 * entries per account, newest for the lowest account numbers, spread over the last 29 days.
 */
export const BENCH_ADMIN = { id: 'bench-admin', email: 'bench-admin@admin.example' };
export const AUDIT_ACTIONS = ['auth.login', 'auth.login_failed', 'program.task_saved', 'admin.user.lock', 'auth.password_changed'] as const;
const DAY_MS = 24 * 3600 * 1000;

export interface ScaleClock {
  now: number;
  /** ms between two consecutive audit entries (entries go back from `now`) */
  auditStepMs: number;
}

export const statusOf = (i: number): UserStatus => (i % 10 === 7 ? 'locked' : i % 10 === 3 ? 'deleted' : 'active');
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
export const accountId = (i: number) => `bench-${String(i).padStart(7, '0')}`;

export function accountItems(i: number, clock: ScaleClock): Record<string, unknown>[] {
  const content = program();
  const createdAt = new Date(clock.now - (i + 1) * 1000).toISOString();
  const user: UserRecord = {
    id: accountId(i),
    email: `learner${i}@example.com`,
    email_lower: `learner${i}@example.com`,
    first_name: `Bench${i}`,
    last_name: `Learner${i}`,
    password_hash: 'scrypt$17$8$1$not-a-real-hash',
    role: 'learner',
    verified: i % 3 !== 0,
    status: statusOf(i),
    is_locked: statusOf(i) === 'locked',
    session_version: 0,
    reminder_frequency: 'daily',
    created_at: createdAt,
    updated_at: createdAt,
    version: 1,
    ...(i % 2 === 0 ? { last_active_day: dayOf(clock.now - (i % 30) * DAY_MS) } : {}),
  };
  const enrolledAt = new Date(clock.now - (8 + (i % 20)) * DAY_MS).toISOString();
  const firstModule = content.modules[0];
  return [
    { ...keys.user(user.id), type: 'user', ...userIndexKeys(user), ...user },
    { ...keys.email(user.email), type: 'email', user_id: user.id },
    ...searchItems(user),
    {
      ...keys.enrollment(user.id, content.id),
      type: 'enrollment',
      id: `enrollment-${user.id}`,
      user_id: user.id,
      program_id: content.id,
      program_title: content.title,
      status: 'active',
      percent_complete: (i % 5) * 10,
      completed_count: 0,
      module_count: content.modules.length,
      open_module_id: firstModule.module_id,
      enrolled_at: enrolledAt,
      updated_at: enrolledAt,
      version: 1,
      funnel_completed: [],
      funnel_in_progress: [firstModule.module_id],
      ...(i % 2 === 1 ? week1PendingIndexKeys(user.id, enrolledAt) : {}),
    },
    {
      ...keys.moduleProgress(user.id, content.id, firstModule.module_id),
      type: 'progress',
      user_id: user.id,
      module_id: firstModule.module_id,
      status: 'open',
      started_at: enrolledAt,
    },
  ];
}

export function auditItems(i: number, perAccount: number, clock: ScaleClock): Record<string, unknown>[] {
  const email = `learner${i}@example.com`;
  return Array.from({ length: perAccount }, (_, j) => {
    const k = i * perAccount + j;
    const action = AUDIT_ACTIONS[k % AUDIT_ACTIONS.length];
    const byAdmin = action.startsWith('admin.');
    return auditItem(
      {
        action,
        actor: byAdmin ? BENCH_ADMIN : { id: accountId(i), email },
        entityType: j % 4 === 3 ? 'enrollment' : 'user',
        entityId: j % 4 === 3 ? `enrollment-${accountId(i)}` : accountId(i),
        newValues: { n: k },
        ip: '203.0.113.7',
        userAgent: 'bench',
      },
      new Date(clock.now - (k + 1) * clock.auditStepMs),
    );
  });
}

/** The counters the writes keep, as they stand with accounts 0..n−1 (one shard holds them all). */
export async function writeCounters(n: number, clock: ScaleClock): Promise<void> {
  const totals = {
    users_total: 0,
    users_verified: 0,
    users_locked: 0,
    users_deleted: 0,
    users_unverified_locked: 0,
    users_unverified_deleted: 0,
    enrollments_total: n,
    enrollment_percent_sum: 0,
    modules_completed_total: 0,
    modules_total: n * program().modules.length,
    week1_on_time_total: 0,
  };
  const lastActive = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const status = statusOf(i);
    if (i % 3 === 0 && status === 'locked') totals.users_unverified_locked++;
    if (i % 3 === 0 && status === 'deleted') totals.users_unverified_deleted++;
    if (status === 'deleted') totals.users_deleted++;
    else {
      totals.users_total++;
      if (i % 3 !== 0) totals.users_verified++;
      if (status === 'locked') totals.users_locked++;
    }
    totals.enrollment_percent_sum += (i % 5) * 10;
    if (i % 2 === 0) {
      totals.week1_on_time_total++;
      const day = dayOf(clock.now - (i % 30) * DAY_MS);
      lastActive.set(day, (lastActive.get(day) ?? 0) + 1);
    }
  }
  const puts = [
    { ...keys.statsShard(0), ...totals, [funnelField.inProgress(program().modules[0].module_id)]: n },
    ...Array.from({ length: STATS_SHARDS - 1 }, (_, s) => ({ ...keys.statsShard(s + 1) })),
    ...[...lastActive].map(([day, count]) => ({ ...keys.lastActiveDay(day), count })),
    ...[...lastActive].map(([day, count]) => ({ ...keys.dailyActive(day), count })),
  ];
  await Promise.all(puts.map((Item) => db().send(new PutCommand({ TableName: tableName(), Item }))));
}

/** The admin account whose email the actor-prefix filter resolves (its search items). */
export function adminItems(clock: ScaleClock): Record<string, unknown>[] {
  const admin: UserRecord = {
    id: BENCH_ADMIN.id,
    email: BENCH_ADMIN.email,
    email_lower: BENCH_ADMIN.email,
    first_name: 'Bench',
    last_name: 'Admin',
    password_hash: 'scrypt$17$8$1$not-a-real-hash',
    role: 'admin',
    verified: true,
    status: 'active',
    is_locked: false,
    session_version: 0,
    reminder_frequency: 'weekly',
    created_at: new Date(clock.now - 400 * DAY_MS).toISOString(),
    updated_at: new Date(clock.now).toISOString(),
    version: 1,
  };
  return [
    { ...keys.user(admin.id), type: 'user', ...userIndexKeys(admin), ...admin },
    { ...keys.email(admin.email), type: 'email', user_id: admin.id },
    ...searchItems(admin),
  ];
}

/**
 * Writes items with BatchWriteItem, 25 a call, `parallel` calls in flight, retrying unprocessed
 * items with backoff. Reports progress every `reportEvery` items.
 */
export async function loadItems(
  items: Iterable<Record<string, unknown>>,
  parallel = 8,
  onProgress?: (written: number) => void,
): Promise<number> {
  const iterator = items[Symbol.iterator]();
  let written = 0;
  let lastReport = 0;
  const nextBatch = () => {
    const batch: Record<string, unknown>[] = [];
    for (let step = iterator.next(); !step.done; step = iterator.next()) {
      batch.push(step.value);
      if (batch.length === 25) break;
    }
    return batch;
  };
  const worker = async () => {
    for (let batch = nextBatch(); batch.length; batch = nextBatch()) {
      await batchWriteItems(batch.map((Item) => ({ PutRequest: { Item } })));
      written += batch.length;
      if (onProgress && written - lastReport >= 50_000) {
        lastReport = written;
        onProgress(written);
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return written;
}

/** Accounts from..to−1 and their audit entries, generated lazily (memory stays one batch). */
export function* scaleItems(from: number, to: number, auditPerAccount: number, clock: ScaleClock): Generator<Record<string, unknown>> {
  for (let i = from; i < to; i++) {
    yield* accountItems(i, clock);
    yield* auditItems(i, auditPerAccount, clock);
  }
}
