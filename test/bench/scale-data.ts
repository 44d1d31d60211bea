import { auditItems as auditEntryItems } from '../../functions/lib/audit';
import { batchWriteItems } from '../../functions/lib/batch-items';
import { funnelDeltas, funnelField, stalledAtEntry, type FunnelCounted } from '../../functions/lib/funnel';
import {
  dayCounterUpdate,
  enrollmentCreatedWrites,
  lastActiveDeltas,
  statsUpdate,
  unverifiedDeltas,
  week1CompletedWrites,
  week1PendingIndexKeys,
} from '../../functions/lib/stats';
import { keys } from '../../functions/lib/table';
import type { UserRecord, UserStatus } from '../../functions/lib/user-record';
import { searchItems, userIndexKeys } from '../../functions/lib/users';
import { program } from '../../functions/program/content';

/**
 * Synthetic data for the admin read benchmarks, built with the product's own item, key and
 * counter builders (the items insertUser, enroll, the learner's progress, the activity
 * aggregator and writeAudit write), loaded straight into DynamoDB with parallel BatchWriteItem.
 * Deterministic from the account number (audit entry ids included), so a run can load 1,000
 * accounts, measure, then load the rest and measure again, and a stopped load can be resumed.
 *
 * Two shapes:
 *  - UNIFORM (the capacity test's pages are full at 600 accounts): status locked when
 *    i % 10 = 7, deleted when i % 10 = 3; unverified when i % 3 = 0; one domain; active on a day
 *    of the last 30 when i is even; enrolled 8–27 days ago, week 1 done on time when i is even
 *    (the odd ones are the drop-off cohort); `auditPerAccount` entries per account, newest for
 *    the lowest account numbers, `clock.auditStepMs` apart.
 *  - SKEWED (`npm run bench:scale`, docs/scale-reads.md "Benchmark"): what a real population
 *    looks like to the indexes — emails over 400 domains with a Zipf spread (example.com holds
 *    about a sixth, the tail a handful each), few locked (~1 %), deleted (~2.4 %) and unverified
 *    (~3.4 %) accounts, activity from today back to a year, enrollments at every stage (8 % not
 *    enrolled, some finished), 0–6 audit entries in the last 30 days for most accounts and
 *    HEAVY_AUDIT_ENTRIES spread over the audit retention for every 1,000th account (i % 1000 = 1).
 */
export const BENCH_ADMIN = { id: 'bench-admin', email: 'bench-admin@admin.example' };
/** Actions the product writes for a learner account (functions/lib/audit-actions.ts): entity type `user`. */
export const AUDIT_ACTIONS = ['auth.login', 'auth.login_failed', 'auth.logout', 'admin.user.lock', 'auth.password_changed'] as const;
const DAY_MS = 24 * 3600 * 1000;
/** Audit entries of a heavy account, spread over HEAVY_AUDIT_DAYS (within the 400-day retention). */
export const HEAVY_AUDIT_ENTRIES = 3000;
const HEAVY_AUDIT_DAYS = 395;
export const isHeavy = (i: number) => i % 1000 === 1;

export interface ScaleClock {
  now: number;
  /** ms between two consecutive audit entries of the uniform shape (entries go back from `now`) */
  auditStepMs: number;
}

/** What account i is: the shape decides every fact the admin reads filter or count on. */
export interface DataShape {
  status(i: number): UserStatus;
  verified(i: number): boolean;
  domain(i: number): string;
  /** days since the account's last activity; undefined: never active */
  activeDaysAgo(i: number): number | undefined;
  /** days since enrolling and modules completed; undefined: not enrolled */
  enrollment(i: number): { daysAgo: number; completed: number; week1Late: boolean } | undefined;
  /** the account's audit entries, newest first */
  audit(i: number, clock: ScaleClock): Array<{ action: string; at: number }>;
}

/** 0 ≤ value < 2³², well mixed from the account number and a salt (so the facts are independent). */
function mix(i: number, salt: number): number {
  let x = Math.imul(i ^ Math.imul(salt, 0x9e3779b1), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}
const unit = (i: number, salt: number) => mix(i, salt) / 2 ** 32;

export const UNIFORM: DataShape = {
  status: (i) => (i % 10 === 7 ? 'locked' : i % 10 === 3 ? 'deleted' : 'active'),
  verified: (i) => i % 3 !== 0,
  domain: () => 'example.com',
  activeDaysAgo: (i) => (i % 2 === 0 ? i % 30 : undefined),
  enrollment: (i) => ({ daysAgo: 8 + (i % 20), completed: i % 2 === 0 ? weekOneModules() : 0, week1Late: false }),
  audit: () => [], // auditItems(i, perAccount, clock) below: its order is global
};

/** Zipf (exponent 1) over DOMAINS: the cumulative shares, rank 0 first. */
const DOMAINS = 400;
const DOMAIN_CDF = (() => {
  const weights = Array.from({ length: DOMAINS }, (_, rank) => 1 / (rank + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  let sum = 0;
  return weights.map((weight) => (sum += weight / total));
})();
const domainName = (rank: number) => (rank === 0 ? 'example.com' : `mail${rank}.example.net`);

const STAGES = [0, 0, 0, 0, 1, 1, 2, 3]; // modules completed; the rest finish the program or stop before its end

export const SKEWED: DataShape = {
  status: (i) => (i % 97 === 7 ? 'locked' : i % 41 === 3 ? 'deleted' : 'active'),
  verified: (i) => i % 29 !== 0,
  domain: (i) => {
    const u = unit(i, 1);
    return domainName(
      Math.max(
        0,
        DOMAIN_CDF.findIndex((share) => u < share),
      ),
    );
  },
  activeDaysAgo: (i) => {
    const u = unit(i, 2);
    if (u < 0.4) return Math.floor(u * 17.5); // 40 % in the last week
    if (u < 0.65) return 7 + Math.floor((u - 0.4) * 92); // 25 % in the rest of the month
    if (u < 0.85) return 30 + Math.floor((u - 0.65) * 1675); // 20 % up to a year ago
    return undefined; // 15 % never active
  },
  enrollment: (i) => {
    const u = unit(i, 3);
    if (u < 0.08) return undefined;
    const modules = program().modules.length;
    const stage = Math.floor(unit(i, 4) * 10);
    const completed = stage < STAGES.length ? Math.min(STAGES[stage], modules) : stage === 8 ? modules - 1 : modules;
    return { daysAgo: 1 + Math.floor(unit(i, 5) * 399), completed, week1Late: unit(i, 6) < 0.2 };
  },
  audit: (i, clock) => {
    const heavy = isHeavy(i);
    const count = heavy ? HEAVY_AUDIT_ENTRIES : Math.floor(unit(i, 7) * 7);
    const spanMs = (heavy ? HEAVY_AUDIT_DAYS : 30) * DAY_MS;
    return Array.from({ length: count }, (_, j) => {
      const u = unit(i * 4096 + j, 8);
      const action = u < 0.5 ? 'auth.login' : u < 0.8 ? 'auth.logout' : u < 0.92 ? 'auth.login_failed' : 'auth.password_changed';
      // evenly over the span, jittered within each step, newest first
      const at = clock.now - Math.floor(((j + unit(i * 4096 + j, 9)) * spanMs) / count) - 1;
      return { action, at };
    });
  },
};

const weekOneModules = () => program().modules.filter((module) => module.week_number === 1).length;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
export const accountId = (i: number) => `bench-${String(i).padStart(7, '0')}`;
const emailOf = (i: number, shape: DataShape) => `learner${i}@${shape.domain(i)}`;
const createdAtOf = (i: number, clock: ScaleClock) => new Date(clock.now - (i + 1) * 1000).toISOString();
/** A UUID-shaped id from the account and entry number: a reload writes the same entry again. */
const auditId = (i: number, j: number) => `00000000-0000-4000-8000-${(i * 10_000 + j).toString(16).padStart(12, '0')}`;

export function userOf(i: number, clock: ScaleClock, shape: DataShape = UNIFORM): UserRecord {
  const createdAt = createdAtOf(i, clock);
  const status = shape.status(i);
  const active = shape.activeDaysAgo(i);
  return {
    id: accountId(i),
    email: emailOf(i, shape),
    email_lower: emailOf(i, shape),
    first_name: `Bench${i}`,
    last_name: `Learner${i}`,
    password_hash: 'scrypt$17$8$1$not-a-real-hash',
    role: 'learner',
    verified: shape.verified(i),
    status,
    is_locked: status === 'locked',
    session_version: 0,
    reminder_frequency: 'daily',
    created_at: createdAt,
    updated_at: createdAt,
    version: 1,
    ...(active === undefined ? {} : { last_active_day: dayOf(clock.now - active * DAY_MS) }),
  };
}

/** The enrollment at its stage: what enroll wrote, then the learner's progress moved (functions/program/learner-program.ts). */
function enrollmentOf(i: number, clock: ScaleClock, shape: DataShape) {
  const stage = shape.enrollment(i);
  if (!stage) return undefined;
  const content = program();
  const modules = content.modules;
  const enrolledAt = new Date(clock.now - stage.daysAgo * DAY_MS - (i % 3600) * 1000).toISOString();
  const week1Done = stage.completed >= weekOneModules();
  // a week 1 done late (or not yet) keeps the enrollment in the drop-off cohort
  const week1At = week1Done ? new Date(Date.parse(enrolledAt) + (stage.week1Late ? 9 : 3) * DAY_MS).toISOString() : undefined;
  const counted: FunnelCounted = {
    funnel_completed: modules.slice(0, stage.completed).map((module) => module.module_id),
    funnel_in_progress: stage.completed < modules.length ? [modules[stage.completed].module_id] : [],
  };
  const finished = stage.completed === modules.length;
  return { stage, enrolledAt, week1At, counted, finished, percent: Math.round((stage.completed / modules.length) * 100) };
}

export function accountItems(i: number, clock: ScaleClock, shape: DataShape = UNIFORM): Record<string, unknown>[] {
  const content = program();
  const user = userOf(i, clock, shape);
  const enrollment = enrollmentOf(i, clock, shape);
  const items: Record<string, unknown>[] = [
    { ...keys.user(user.id), type: 'user', ...userIndexKeys(user), ...user },
    { ...keys.email(user.email), type: 'email', user_id: user.id },
    ...searchItems(user),
  ];
  if (!enrollment) return items;
  const { stage, enrolledAt, week1At, counted, finished, percent } = enrollment;
  const onTime = week1At !== undefined && !stage.week1Late;
  items.push({
    ...keys.enrollment(user.id, content.id),
    type: 'enrollment',
    id: `enrollment-${user.id}`,
    user_id: user.id,
    program_id: content.id,
    program_title: content.title,
    status: finished ? 'completed' : 'active',
    percent_complete: percent,
    completed_count: stage.completed,
    module_count: content.modules.length,
    ...(finished ? { completed_at: new Date(clock.now - DAY_MS).toISOString() } : { open_module_id: counted.funnel_in_progress[0] }),
    enrolled_at: enrolledAt,
    updated_at: enrolledAt,
    version: 1 + stage.completed,
    ...counted,
    ...(week1At ? { week1_completed_at: week1At } : {}),
    ...(onTime ? {} : week1PendingIndexKeys(user.id, enrolledAt)),
    ...(stalledAtEntry(user.id, counted) ?? {}),
  });
  content.modules.slice(0, Math.min(stage.completed + 1, content.modules.length)).forEach((module, index) =>
    items.push({
      ...keys.moduleProgress(user.id, content.id, module.module_id),
      type: 'module_progress',
      user_id: user.id,
      program_id: content.id,
      module_id: module.module_id,
      status: index < stage.completed ? 'completed' : 'open',
      started_at: enrolledAt,
    }),
  );
  return items;
}

/** The uniform shape's audit entries of account i: `perAccount` each, actions in turn, one global time order. */
export function auditItems(i: number, perAccount: number, clock: ScaleClock): Record<string, unknown>[] {
  const email = emailOf(i, UNIFORM);
  return Array.from({ length: perAccount }, (_, j) => {
    const k = i * perAccount + j;
    const action = AUDIT_ACTIONS[k % AUDIT_ACTIONS.length];
    return auditEntryItem(i, j, email, { action, at: clock.now - (k + 1) * clock.auditStepMs });
  }).flat();
}

/** A shape's audit entries of account i; a locked account also has the admin's lock entry. */
export function shapedAuditItems(i: number, clock: ScaleClock, shape: DataShape): Record<string, unknown>[] {
  const email = emailOf(i, shape);
  const entries = shape.audit(i, clock);
  if (shape.status(i) === 'locked') entries.push({ action: 'admin.user.lock', at: clock.now - (i % 86_400) * 1000 - 1 });
  return entries.flatMap((entry, j) => auditEntryItem(i, j, email, entry));
}

/** An entry's items as the product writes them: the entry and its references. */
function auditEntryItem(i: number, j: number, email: string, entry: { action: string; at: number }) {
  const byAdmin = entry.action.startsWith('admin.');
  return auditEntryItems(
    {
      action: entry.action,
      actor: byAdmin ? BENCH_ADMIN : { id: accountId(i), email },
      entityType: 'user',
      entityId: accountId(i),
      newValues: { n: j },
      ip: '203.0.113.7',
      userAgent: 'bench',
    },
    new Date(entry.at),
    auditId(i, j),
  );
}

/** Runs `build` with Math.random drawing from a generator seeded by `seed`: the builders' shard choice, reproducible. */
function seededRandom<T>(seed: number, build: () => T): T {
  const random = Math.random;
  let state = mix(seed, 11);
  Math.random = () => {
    state = mix(state, 12);
    return state / 2 ** 32;
  };
  try {
    return build();
  } finally {
    Math.random = random;
  }
}

type CounterUpdate = {
  Update: {
    Key: Record<string, string>;
    ExpressionAttributeNames: Record<string, string>;
    ExpressionAttributeValues: Record<string, number>;
  };
};

/**
 * The counter writes of account i as production makes them: registration (insertUser's
 * statsUpdate), enrolling (enroll's statsUpdate and enroll-day bucket), the progress since
 * (learner-program's statsUpdate with the funnel deltas and the week-1 writes) and the last
 * activity (the aggregator's DAILYACTIVE and LASTACTIVE ADDs), each through the product's
 * builder, so each lands on the shard the builder draws.
 */
function counterWrites(i: number, clock: ScaleClock, shape: DataShape): CounterUpdate[] {
  const content = program();
  const user = userOf(i, clock, shape);
  const enrollment = enrollmentOf(i, clock, shape);
  const writes = [
    statsUpdate({
      ...(user.status === 'deleted'
        ? { users_deleted: 1 }
        : { users_total: 1, users_verified: user.verified ? 1 : 0, users_locked: user.status === 'locked' ? 1 : 0 }),
      ...unverifiedDeltas(undefined, user),
    }),
  ];
  if (enrollment) {
    const first = content.modules[0].module_id;
    const enrolled: FunnelCounted = { funnel_completed: [], funnel_in_progress: [first] };
    writes.push(
      statsUpdate({
        enrollments_total: 1,
        modules_total: content.modules.length,
        enrollment_percent_sum: 0,
        [funnelField.inProgress(first)]: 1,
      }),
      ...enrollmentCreatedWrites(enrollment.enrolledAt),
    );
    const week1 = enrollment.week1At ? week1CompletedWrites(enrollment.enrolledAt, enrollment.week1At) : { stats: {}, writes: [] };
    writes.push(
      statsUpdate({
        modules_completed_total: enrollment.stage.completed,
        enrollment_percent_sum: enrollment.percent,
        ...week1.stats,
        ...funnelDeltas(enrolled, enrollment.counted),
      }),
      ...week1.writes,
    );
  }
  if (user.last_active_day) {
    writes.push(
      dayCounterUpdate('DAILYACTIVE', user.last_active_day, { count: 1 }),
      dayCounterUpdate('LASTACTIVE', user.last_active_day, lastActiveDeltas(user.status, 1)),
    );
  }
  return writes.filter((write): write is NonNullable<typeof write> => write !== undefined);
}

/**
 * The counters the writes keep, as they stand with accounts 0..n−1: every account's counter
 * writes (counterWrites) summed per item, then put (idempotent: a later call for more accounts
 * replaces the items, so a load in phases or a resumed load counts each account once).
 */
export async function writeCounters(n: number, clock: ScaleClock, shape: DataShape = UNIFORM): Promise<void> {
  const items = new Map<string, Record<string, unknown>>();
  for (let i = 0; i < n; i++) {
    for (const { Update } of seededRandom(i, () => counterWrites(i, clock, shape))) {
      const id = `${Update.Key.pk}|${Update.Key.sk}`;
      const item = items.get(id) ?? { ...Update.Key };
      for (const [name, field] of Object.entries(Update.ExpressionAttributeNames)) {
        const delta = Update.ExpressionAttributeValues[`:d${name.slice(2)}`];
        item[field] = Number(item[field] ?? 0) + delta;
      }
      items.set(id, item);
    }
  }
  await loadItems(items.values());
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
 * items with backoff. Reports progress every 50,000 items.
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

/** Accounts from..to−1 of the skewed shape and their audit entries, generated lazily (memory stays one batch). */
export function* scaleItems(from: number, to: number, clock: ScaleClock, shape: DataShape = SKEWED): Generator<Record<string, unknown>> {
  for (let i = from; i < to; i++) {
    yield* accountItems(i, clock, shape);
    yield* shapedAuditItems(i, clock, shape);
  }
}
