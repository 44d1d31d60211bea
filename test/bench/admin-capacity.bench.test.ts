import { describe, expect, it } from 'vitest';
import { auditLog, userAuditLog } from '../../functions/admin/audit-log';
import { adminSummary } from '../../functions/admin/summary';
import { listUsers } from '../../functions/admin/user-list';
import { capacityMeter } from '../../functions/lib/db';
import { accountId, accountItems, adminItems, auditItems, loadItems, writeCounters } from './scale-data';

/**
 * Admin reads must cost the same whatever the number of accounts (docs/scale-reads.md).
 * Accounts, enrollments, progress and audit entries are written in bulk with the product's own
 * item builders (test/bench/scale-data.ts), then the consumed capacity and the round trips of
 * each read are measured at a size where every page is full (600 accounts, 2,400 audit entries)
 * and at 5,300 accounts (21,200 audit entries). The summary is also measured at 10 accounts.
 * The scale run on a skewed population (two sizes, latency too) is `npm run bench:scale`.
 */
const AUDIT_PER_ACCOUNT = 4;
const clock = { now: Date.now(), auditStepMs: 118_000 };

async function seed(from: number, to: number) {
  function* items() {
    for (let i = from; i < to; i++) {
      yield* accountItems(i, clock);
      yield* auditItems(i, AUDIT_PER_ACCOUNT, clock);
    }
  }
  await loadItems(items(), 8);
  await writeCounters(to, clock);
}

const day = (offset: number) => new Date(clock.now - offset * 24 * 3600 * 1000).toISOString().slice(0, 10);
const CALLS: Array<[string, () => Promise<{ items: unknown[] }>]> = [
  ['users page', () => listUsers({})],
  ['users status=locked', () => listUsers({ status: 'locked' })],
  ['users status=deleted', () => listUsers({ status: 'deleted' })],
  ['users filter=active7d', () => listUsers({ filter: 'active7d' })],
  ['users filter=active30d', () => listUsers({ filter: 'active30d' })],
  ['users filter=active7d&status=active', () => listUsers({ filter: 'active7d', status: 'active' })],
  ['users filter=unverified', () => listUsers({ filter: 'unverified' })],
  ['users filter=week1_dropoff', () => listUsers({ filter: 'week1_dropoff' })],
  ['users search', () => listUsers({ query: 'learner1' })],
  ['users search + unverified', () => listUsers({ query: 'learner1', filter: 'unverified' })],
  ['users search + active30d', () => listUsers({ query: 'learner1', filter: 'active30d' })],
  ['users search + week1_dropoff', () => listUsers({ query: 'learner1', filter: 'week1_dropoff' })],
  ['audit log', () => auditLog({})],
  ['audit action', () => auditLog({ action: 'auth.login' })],
  ['audit entity_type', () => auditLog({ entity_type: 'user' })],
  ['audit actor domain', () => auditLog({ actor: '@example.com' })],
  ['audit actor prefix', () => auditLog({ actor: 'bench-admin' })],
  ['audit action+type+dates', () => auditLog({ action: 'auth.login', entity_type: 'user', date_from: day(20), date_to: day(0) })],
  ['per-user audit', () => userAuditLog(accountId(5), {})],
];

async function cost<T>(call: () => Promise<T>) {
  capacityMeter.reset();
  const result = await call();
  return { result, ...capacityMeter.snapshot() };
}

async function measureAll() {
  const figures = new Map<string, { read: number; calls: number; rows: number }>();
  for (const [name, call] of CALLS) {
    const { result, read, calls } = await cost(call);
    figures.set(name, { read, calls, rows: result.items.length });
  }
  return figures;
}

const within10 = (a: number, b: number) => Math.abs(a - b) <= 0.1 * Math.max(a, b);

describe('admin read cost does not grow with the data', () => {
  it('summary, user lists, cohorts, search and audit log: same consumed capacity at 600 and 5,300 accounts', async () => {
    await loadItems(adminItems(clock));
    await seed(0, 10);
    const tinySummary = await cost(() => adminSummary());
    expect(tinySummary.result.cards.total_users).toBe(9); // account 3 is deleted

    await seed(10, 600);
    const full = await measureAll();
    const fullSummary = await cost(() => adminSummary());
    // every page is full at this size: the comparison is page against page
    for (const [name, figure] of full) expect(figure.rows, name).toBe(name.startsWith('audit') ? 50 : name === 'per-user audit' ? 3 : 25); // account 5 has 3 user entries

    const started = Date.now();
    await seed(600, 5300);
    const seedSeconds = (Date.now() - started) / 1000;
    const large = await measureAll();
    const largeSummary = await cost(() => adminSummary());
    expect(largeSummary.result.cards.total_users).toBe(4770); // 10 % of the accounts are deleted

    console.log(
      [
        `seeded 4,700 accounts and ${(4700 * AUDIT_PER_ACCOUNT).toLocaleString('en-US')} audit entries in ${seedSeconds.toFixed(1)} s`,
        `summary at 10: ${JSON.stringify({ read: tinySummary.read, calls: tinySummary.calls })}   at 600: ${JSON.stringify({ read: fullSummary.read })}   at 5,300: ${JSON.stringify({ read: largeSummary.read, calls: largeSummary.calls })}`,
        ...CALLS.map(
          ([name]) => `${name.padEnd(26)} at 600: ${JSON.stringify(full.get(name))}   at 5,300: ${JSON.stringify(large.get(name))}`,
        ),
      ].join('\n'),
    );
    expect(largeSummary.read).toBeGreaterThan(0);
    // the day counters are written to one of 16 shards a day, as production writes them: the
    // summary reads more shard items while they fill up (6.5 RCU at 10 accounts, 8.5 at 5,300),
    // bounded by the window's days × shards; a read that grew with the accounts would be ~9×
    expect(largeSummary.read).toBeLessThanOrEqual(1.5 * fullSummary.read);
    expect(largeSummary.calls).toBe(tinySummary.calls);
    for (const [name] of CALLS) {
      const a = full.get(name)!;
      const b = large.get(name)!;
      expect(b.read, name).toBeGreaterThan(0);
      expect(within10(a.read, b.read), `${name}: ${a.read} RCU at 600, ${b.read} at 5,300`).toBe(true);
      expect(b.calls, name).toBe(a.calls);
      expect(b.rows, name).toBe(a.rows);
    }
    // the search filters on its items (docs/scale-reads.md "Search"): one Query returns only
    // candidates, then the page's accounts and enrollments in parallel; before, an unverified
    // search read accounts for every match in two rounds (5–6 calls, 60 RCU), and an activity
    // cohort checked twice the page on the accounts (43 RCU)
    for (const name of ['users search', 'users search + unverified', 'users search + active30d']) {
      expect(large.get(name)!.calls, name).toBe(3);
      expect(large.get(name)!.read, name).toBeLessThanOrEqual(32);
    }
  });
});
