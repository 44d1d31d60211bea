import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { auditViewsOf, findIn, type AuditRow } from './audit-views';
import { dayOfMs, type AccountModel, type AuditExpectation } from './oracle';
import type { World } from './world';

/**
 * The invariants (docs/soak.md "Invariants"), each checked against the oracle with its figures.
 * A broken one is recorded as a violation with the simulated time and what differed; the report
 * keeps them all and names the first.
 */
const DAY_MS = 24 * 3600 * 1000;

export interface InvariantFigures {
  [name: string]: Record<string, number | string>;
}

// ---------------------------------------------------------------- counters

interface Summary {
  cards: { total_users: number; total_enrollments: number; active_7d: number; active_30d: number; verification_rate: number };
  series: { actives_30d_daily: Array<{ date: string; count: number }> };
  funnel: Array<{ module_id: string; completed: number; in_progress: number }>;
}

/** The last active day of an account as of now (its acknowledged sign-ins and saves). */
const lastActiveDay = (model: AccountModel) => [...model.activeDays].sort().at(-1);

/** Reads again the module states an admin override changed (the console's detail of the account). */
async function refreshStaleModules(world: World): Promise<void> {
  for (const model of world.oracle.existing()) {
    if (!model.modulesStale || !model.id) continue;
    const answer = await world.admin.client.get<{
      enrollments: Array<{
        modules: Array<{ module_id: string; status: AccountModel['modules'] extends Map<string, infer S> ? S : never }>;
      }>;
    }>(`/api/admin/users/${model.id}`);
    if (answer.status !== 200) continue;
    const modules = answer.body.enrollments[0]?.modules ?? [];
    model.modules = new Map(modules.map((module) => [module.module_id, module.status]));
    model.modulesStale = false;
  }
}

/**
 * The admin summary's figures against the oracle's: total users, enrollments, verification
 * rate, active 7d/30d, the daily actives of the chart and the module funnel. `activity` is false
 * while the stream is out (those figures come from it and trail by design until the rebuild).
 */
export async function checkCounters(world: World, activity: boolean): Promise<Record<string, number>> {
  await refreshStaleModules(world);
  const answer = await world.admin.client.get<Summary>('/api/admin/summary');
  if (answer.status !== 200) {
    world.record.violate('counters', `the summary answered ${answer.status}`);
    return {};
  }
  const summary = answer.body;
  const users = world.oracle.users();
  const existing = world.oracle.existing();
  const enrolled = existing.filter((model) => model.enrolledAt !== undefined && model.role === 'learner');
  const today = dayOfMs(world.clock.now());
  const since = (days: number) => dayOfMs(Date.parse(`${today}T00:00:00Z`) - (days - 1) * DAY_MS);
  const activeWithin = (days: number) => users.filter((model) => (lastActiveDay(model) ?? '') >= since(days)).length;
  const expected: Record<string, number> = {
    total_users: users.length,
    total_enrollments: enrolled.length,
    verification_rate: users.length ? users.filter((model) => model.verified).length / users.length : 0,
  };
  if (activity) {
    expected.active_7d = activeWithin(7);
    expected.active_30d = activeWithin(30);
  }
  const got: Record<string, number> = {
    total_users: summary.cards.total_users,
    total_enrollments: summary.cards.total_enrollments,
    verification_rate: summary.cards.verification_rate,
    active_7d: summary.cards.active_7d,
    active_30d: summary.cards.active_30d,
  };
  for (const [field, value] of Object.entries(expected)) {
    if (Math.abs(got[field] - value) > 1e-9)
      world.record.violate('counters', `${field}: the summary says ${got[field]}, the oracle ${value}`);
  }
  if (activity) {
    for (const { date, count } of summary.series.actives_30d_daily) {
      const want = existing.filter((model) => model.activeDays.has(date)).length;
      if (count !== want) world.record.violate('counters', `daily actives of ${date}: the chart says ${count}, the oracle ${want}`);
    }
  }
  for (const row of summary.funnel) {
    const completed = enrolled.filter((model) => model.modules.get(row.module_id) === 'completed').length;
    const open = enrolled.filter((model) => model.modules.get(row.module_id) === 'open').length;
    if (row.completed !== completed || row.in_progress !== open)
      world.record.violate(
        'counters',
        `funnel of ${row.module_id}: ${row.completed} completed / ${row.in_progress} in progress, the oracle ${completed} / ${open}`,
      );
  }
  world.record.count('counter_checks');
  return got;
}

// ---------------------------------------------------------------- audit

/** Every row of a view, page after page (the console's cursor). */
async function allRows(world: World, path: string, cache: Map<string, AuditRow[]>): Promise<AuditRow[]> {
  const known = cache.get(path);
  if (known) return known;
  const rows: AuditRow[] = [];
  let cursor: string | undefined;
  for (let page = 1; page <= 2000; page++) {
    const separator = path.includes('?') ? '&' : '?';
    const answer = await world.admin.client.get<{ items: AuditRow[]; has_next: boolean; next_cursor?: string | null }>(
      `${path}${cursor ? `${separator}cursor=${encodeURIComponent(cursor)}&page=${page}` : ''}`,
    );
    if (answer.status !== 200) {
      world.record.violate('audit', `${path} page ${page} answered ${answer.status}`);
      break;
    }
    rows.push(...answer.body.items);
    if (!answer.body.has_next || !answer.body.next_cursor) break;
    cursor = answer.body.next_cursor;
  }
  cache.set(path, rows);
  return rows;
}

/** Every expected entry through every view that must show it. */
export async function checkAuditComplete(world: World): Promise<Record<string, number>> {
  const cache = new Map<string, AuditRow[]>();
  let checked = 0;
  let missing = 0;
  const missingByView = new Map<string, number>();
  for (const expectation of world.oracle.audit) {
    if (!expectation.entityId && expectation.entityType === 'user') {
      world.record.violate('audit', `${expectation.action} of ${expectation.entityEmail}: the account's id was never learnt`);
      continue;
    }
    // an erased actor's address is scrubbed from the entry (its domain's references deleted); a changed one is filed under the address it had then
    const actorAccount = expectation.actorId ? world.oracle.byId.get(expectation.actorId) : undefined;
    const views = auditViewsOf(expectation, actorAccount?.status === 'erased', world);
    for (const view of views) {
      checked += 1;
      if (findIn(await allRows(world, stripWindow(view.path, world), cache), expectation)) continue;
      missing += 1;
      missingByView.set(view.name, (missingByView.get(view.name) ?? 0) + 1);
      if (missing <= 20) world.record.violate('audit', `${describe(expectation)} not found in ${view.name}`);
    }
  }
  if (missing > 20) world.record.violate('audit', `${missing - 20} more entries missing from a view`);
  return {
    expectations: world.oracle.audit.length,
    lookups: checked,
    missing,
    views_read: cache.size,
    ...Object.fromEntries([...missingByView].map(([view, n]) => [`missing in ${view}`, n])),
  };
}

/** The view's path without its page size (every page is read) and with the whole run as its window. */
const stripWindow = (path: string, world: World) => path.replace(/date_to=[\d-]+/, `date_to=${dayOfMs(world.clock.now())}`);

const describe = (expectation: AuditExpectation) =>
  `${expectation.action} on ${expectation.entityType} ${expectation.entityId ?? expectation.entityEmail} at ${new Date(expectation.at).toISOString()}`;

// ---------------------------------------------------------------- learner work

/** Every item of an account whose sort key starts with `prefix` (the operator's direct read of the table: the oracle's own check). */
async function accountItems(world: World, userId: string, prefix: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await world.twin.operatorDb.send(
      new QueryCommand({
        TableName: process.env.TABLE_NAME,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':prefix': prefix },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Every acknowledged task save is stored as saved, and every module the learner was shown completed is completed. */
export async function checkLearnerWork(world: World): Promise<Record<string, number>> {
  let saves = 0;
  let lost = 0;
  let completions = 0;
  let completionsLost = 0;
  for (const model of world.oracle.existing()) {
    if (!model.id) continue;
    if (model.saved.size) {
      const stored = new Map((await accountItems(world, model.id, 'TASK#')).map((item) => [String(item.task_id), item]));
      for (const [key, saved] of model.saved) {
        saves += 1;
        const item = stored.get(key.slice(key.indexOf('/') + 1));
        const same =
          item && (saved.answer === undefined || item.answer === saved.answer) && (saved.done === undefined || item.done === saved.done);
        if (same) continue;
        lost += 1;
        if (lost <= 10) world.record.violate('learner_work', `${model.email}: the save of ${key} is not stored as acknowledged`);
      }
    }
    const completed = [...model.modules].filter(([, state]) => state === 'completed').map(([id]) => id);
    if (!completed.length) continue;
    const progress = new Map((await accountItems(world, model.id, 'PROGRESS#')).map((item) => [String(item.module_id), item.status]));
    for (const moduleId of completed) {
      completions += 1;
      if (progress.get(moduleId) === 'completed') continue;
      completionsLost += 1;
      if (completionsLost <= 10)
        world.record.violate(
          'learner_work',
          `${model.email}: module ${moduleId} was shown completed and is stored ${String(progress.get(moduleId))}`,
        );
    }
  }
  return { acknowledged_saves: saves, lost, completions, completions_lost: completionsLost };
}

// ---------------------------------------------------------------- erasure

const namePattern = (name: string) =>
  new RegExp(`(^|[^\\p{L}\\p{N}])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}\\p{N}])`, 'u');
const ipPattern = (ip: string) => new RegExp(`(^|[^\\d.])${ip.replace(/\./g, '\\.')}($|[^\\d])`);

/**
 * Every account soft-deleted longer ago than the retention period (plus the day the job takes)
 * is erased, and a scan of the whole table (the test's own, never the product's) finds none of
 * an erased account's personal data: any of its addresses, its last names, its IP.
 */
export async function checkErasure(world: World): Promise<Record<string, number>> {
  const retentionMs = world.retentionDays * DAY_MS;
  const due = [...world.oracle.accounts.values()].filter(
    (model) =>
      model.status === 'deleted' &&
      model.deletedAt !== undefined &&
      world.clock.now() - model.deletedAt > retentionMs + DAY_MS + 3 * 3600_000,
  );
  for (const model of due)
    world.record.violate('erasure', `${model.email} was deleted on ${new Date(model.deletedAt!).toISOString()} and is not erased`);
  const erased = [...world.oracle.accounts.values()].filter((model) => model.status === 'erased');
  const needles = erased.flatMap((model) => [
    ...model.emails.map((email) => ({ model, what: 'email', test: (text: string) => text.toLowerCase().includes(email.toLowerCase()) })),
    // a whole name: an erased "Noah6" is not found inside another person's "Noah61"
    ...model.names
      .filter((name) => /\d/.test(name))
      .map((name) => ({ model, what: 'name', test: (text: string) => namePattern(name).test(text) })),
    ...[...model.ips].map((ip) => ({ model, what: 'ip', test: (text: string) => ipPattern(ip).test(text) })),
  ]);
  let scanned = 0;
  let expired = 0;
  let found = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await world.twin.operatorDb.send(new ScanCommand({ TableName: process.env.TABLE_NAME, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) {
      scanned += 1;
      // past its TTL: DynamoDB deletes it (DynamoDB Local never does), so it is gone as far as a person can tell
      if (typeof item.expires_at === 'number' && item.expires_at * 1000 <= world.clock.now()) {
        expired += 1;
        continue;
      }
      const text = JSON.stringify(item, (_, value: unknown) => (value instanceof Set ? [...(value as Set<unknown>)] : value));
      for (const needle of needles) {
        if (!needle.test(text)) continue;
        found += 1;
        if (found <= 10)
          world.record.violate(
            'erasure',
            `the ${needle.what} of erased ${needle.model.emails[0]} is still in ${String(item.pk)} / ${String(item.sk)}`,
          );
      }
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return { erased: erased.length, overdue: due.length, items_scanned: scanned, items_past_their_ttl: expired, personal_data_found: found };
}

// ---------------------------------------------------------------- server errors

/** No 5xx but while a fault was injected, and no call the IAM twin refused. */
export function checkServerErrors(world: World): Record<string, number> {
  const unexplained = world.record.serverErrors.filter((error) => !error.faults.length);
  for (const error of unexplained.slice(0, 10))
    world.record.violate(
      'server_errors',
      `${error.status} ${error.error} on ${error.method} ${error.path} at ${new Date(error.at).toISOString()} with no fault injected`,
    );
  const denied = world.twin.iam?.deniedCalls.length ?? 0;
  if (denied)
    world.record.violate(
      'iam',
      `${denied} AWS calls refused by the functions' roles, e.g. ${JSON.stringify(world.twin.iam!.deniedCalls[0]).slice(0, 300)}`,
    );
  return {
    server_errors: world.record.serverErrors.length,
    during_faults: world.record.serverErrors.length - unexplained.length,
    unexplained: unexplained.length,
    iam_denied: denied,
  };
}
