/**
 * `npm run bench:scale`: every admin read at SMALL and at LARGE accounts (docs/scale-reads.md).
 * Starts its own in-memory DynamoDB Local (or uses DYNAMODB_ENDPOINT), loads the skewed
 * population of test/bench/scale-data.ts (accounts, enrollments at their stage, progress, audit
 * entries, heavy histories, the counters as production shards them) straight into the table with
 * BatchWriteItem through the product's builders, then measures each call: consumed RCU and
 * round trips of one call, the most items one call holds, and the p50 latency against a raw
 * GetItem in the same run. Sizes come from the environment:
 *   BENCH_SMALL (2000)  BENCH_LARGE (100000)
 *   BENCH_PARALLEL (8 BatchWriteItem calls in flight)  BENCH_REPS (21 timed runs per call)
 *   BENCH_OUT (a JSON file for the figures, optional)
 * Phases, so a long load can run while code changes and each size can be measured later against
 * a DynamoDB Local that outlives the process (DYNAMODB_ENDPOINT required): BENCH_PHASE=load or
 * measure with BENCH_TABLE, BENCH_ACCOUNTS and BENCH_NOW (the data's clock, epoch ms, the same
 * for both phases; measure writes BENCH_OUT), then BENCH_PHASE=report with BENCH_SMALL_JSON and
 * BENCH_LARGE_JSON prints the table. BENCH_FROM resumes a stopped load at that account. Without BENCH_PHASE: load and measure both sizes in one go.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { freePort, startDynamoDbLocal } from '../../infra/local/processes';
import { ensureTable } from '../../infra/local/table-setup';

const env = process.env;
const SMALL = Number(env.BENCH_SMALL ?? 2000);
const LARGE = Number(env.BENCH_LARGE ?? 100_000);
const PARALLEL = Number(env.BENCH_PARALLEL ?? 8);
const REPS = Number(env.BENCH_REPS ?? 21);
const PHASE = env.BENCH_PHASE ?? '';

async function main() {
  if (PHASE === 'report')
    return report(
      JSON.parse(readFileSync(env.BENCH_SMALL_JSON!, 'utf8')) as Measured,
      JSON.parse(readFileSync(env.BENCH_LARGE_JSON!, 'utf8')) as Measured,
    );
  if (PHASE && (!env.DYNAMODB_ENDPOINT || !env.BENCH_TABLE || !env.BENCH_ACCOUNTS || !env.BENCH_NOW))
    throw new Error('BENCH_PHASE load/measure needs DYNAMODB_ENDPOINT, BENCH_TABLE, BENCH_ACCOUNTS and BENCH_NOW');
  let dynamo: Awaited<ReturnType<typeof startDynamoDbLocal>> | undefined;
  let endpoint = env.DYNAMODB_ENDPOINT;
  if (!endpoint) {
    const port = await freePort();
    dynamo = await startDynamoDbLocal(port, undefined); // in memory
    endpoint = `http://127.0.0.1:${port}`;
  }
  Object.assign(env, {
    STAGE: 'local',
    TABLE_NAME: env.BENCH_TABLE ?? `bench-scale-${randomUUID().slice(0, 8)}`,
    DYNAMODB_ENDPOINT: endpoint,
    AWS_REGION: 'us-east-1',
    SESSION_SECRET: env.SESSION_SECRET ?? 'bench-scale-secret-bench-scale-secret',
    LOG_LEVEL: 'SILENT',
  });
  try {
    await run(endpoint);
  } finally {
    dynamo?.kill('SIGTERM');
  }
}

async function run(endpoint: string) {
  // app modules read the environment on first use: import them once it is set
  const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
  const { capacityMeter, db, tableName } = await import('../../functions/lib/db');
  const { keys } = await import('../../functions/lib/table');
  const { adminSummary } = await import('../../functions/admin/summary');
  const { listUsers } = await import('../../functions/admin/user-list');
  const { auditLog, userAuditLog } = await import('../../functions/admin/audit-log');
  const { userDetail } = await import('../../functions/admin/user-detail');
  const { hardDeletePreview } = await import('../../functions/admin/hard-delete-preview');
  const { exportAccountData, exportDocument } = await import('../../functions/accounts/data-export');
  const { program } = await import('../../functions/program/content');
  const data = await import('./scale-data');

  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  if (PHASE !== 'measure') await ensureTable(client, tableName());
  client.destroy();

  // the most items one response carried, and items per call (Lambda memory holds about that)
  let itemsThisCall = 0;
  db().middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const output = result.output as { Items?: unknown[]; Responses?: Record<string, unknown[]> };
      itemsThisCall += (output.Items?.length ?? 0) + Object.values(output.Responses ?? {}).reduce((sum, list) => sum + list.length, 0);
      return result;
    },
    { step: 'initialize', name: 'benchItemCounter' },
  );

  const clock = {
    now: env.BENCH_NOW ? Number(env.BENCH_NOW) : Date.now(),
    auditStepMs: 0, // the skewed shape times each account's entries itself
  };
  const day = (offset: number) => new Date(clock.now - offset * 24 * 3600 * 1000).toISOString().slice(0, 10);

  async function load(from: number, to: number) {
    const started = Date.now();
    const written = await data.loadItems(data.scaleItems(from, to, clock), PARALLEL, (n) =>
      console.log(`  … ${n.toLocaleString('en-US')} items, ${Math.round(n / ((Date.now() - started) / 1000))} items/s`),
    );
    await data.writeCounters(to, clock, data.SKEWED);
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `loaded accounts ${from.toLocaleString('en-US')}–${(to - 1).toLocaleString('en-US')}: ${written.toLocaleString('en-US')} items in ${seconds.toFixed(0)} s (${Math.round(written / seconds)} items/s)`,
    );
  }

  /**
   * The cursor that reads page `page` of a list, found by walking the pages before it as the
   * console does (each answer's next_cursor); undefined when the list has fewer pages.
   */
  async function cursorOf(read: (cursor: string | undefined) => Promise<{ next_cursor: string | null }>, page: number) {
    let cursor: string | undefined;
    for (let shown = 1; shown < page; shown++) {
      const next = (await read(cursor)).next_cursor;
      if (!next) return undefined;
      cursor = next;
    }
    return cursor;
  }
  /** The cursor of the list's last page (the page walk stops where next_cursor does). */
  async function lastCursorOf(read: (cursor: string | undefined) => Promise<{ next_cursor: string | null }>) {
    let cursor: string | undefined;
    for (let next = (await read(cursor)).next_cursor; next; next = (await read(cursor)).next_cursor) cursor = next;
    return cursor;
  }
  const cursors = new Map<string, string | undefined>();
  const cached = async (name: string, find: () => Promise<string | undefined>) => {
    if (!cursors.has(name)) cursors.set(name, await find());
    const cursor = cursors.get(name);
    if (!cursor) throw new Error(`${name}: the list has fewer pages at this size`);
    return cursor;
  };
  const users100 = (cursor: string | undefined) => listUsers({ page_size: '100', cursor });
  const users25 = (cursor: string | undefined) => listUsers({ cursor });
  const audit25 = (cursor: string | undefined) => auditLog({ page_size: '25', cursor });

  // the accounts of the samples: an ordinary learner, one with years of history, the admin who locked the locked ones
  const sample = data.accountId(5);
  const heavy = data.accountId(1);
  const heavyUser = data.userOf(1, clock, data.SKEWED);
  const calls = (n: number): Array<[string, () => Promise<unknown>]> => [
    ['summary', () => adminSummary()],
    ['users (default: active + locked)', () => listUsers({})],
    ['users status=all', () => listUsers({ status: 'all' })],
    ['users status=active', () => listUsers({ status: 'active' })],
    ['users status=locked', () => listUsers({ status: 'locked' })],
    ['users status=deleted', () => listUsers({ status: 'deleted' })],
    ['users filter=active7d', () => listUsers({ filter: 'active7d' })],
    ['users filter=active30d', () => listUsers({ filter: 'active30d' })],
    ['users filter=active7d&status=active', () => listUsers({ filter: 'active7d', status: 'active' })],
    ['users filter=unverified', () => listUsers({ filter: 'unverified' })],
    ['users filter=week1_dropoff', () => listUsers({ filter: 'week1_dropoff' })],
    ['users filter=week1_dropoff&status=locked', () => listUsers({ filter: 'week1_dropoff', status: 'locked' })],
    ['users filter=unverified&status=locked', () => listUsers({ filter: 'unverified', status: 'locked' })],
    ['users search "learner1"', () => listUsers({ query: 'learner1' })],
    ['users search "bench2" + unverified', () => listUsers({ query: 'bench2', filter: 'unverified' })],
    ['users search "learner1" + active30d', () => listUsers({ query: 'learner1', filter: 'active30d' })],
    ['users search "learner1" + locked + unverified', () => listUsers({ query: 'learner1', status: 'locked', filter: 'unverified' })],
    ['users page 60 by cursor', async () => listUsers({ cursor: await cached(`users60@${n}`, () => cursorOf(users25, 60)) })],
    ['users last page by cursor (100 a page)', async () => users100(await cached(`usersLast@${n}`, () => lastCursorOf(users100)))],
    ['audit log (last 30 days)', () => auditLog({})],
    ['audit log page 60 by cursor (25 a page)', async () => audit25(await cached(`audit60@${n}`, () => cursorOf(audit25, 60)))],
    ['audit action=auth.login', () => auditLog({ action: 'auth.login' })],
    ['audit entity_type=user', () => auditLog({ entity_type: 'user' })],
    ['audit entity_type+entity_id', () => auditLog({ entity_type: 'user', entity_id: sample })],
    ['audit entity_id alone', () => auditLog({ entity_id: sample })],
    ['audit actor full email', () => auditLog({ actor: data.userOf(5, clock, data.SKEWED).email })],
    ['audit actor prefix "bench-admin"', () => auditLog({ actor: 'bench-admin' })],
    ['audit actor prefix "learner1" (many accounts)', () => auditLog({ actor: 'learner1' })],
    ['audit actor domain @example.com (the largest)', () => auditLog({ actor: '@example.com' })],
    ['audit dates (10 days)', () => auditLog({ date_from: day(12), date_to: day(3) })],
    ['audit action+type+dates', () => auditLog({ action: 'auth.login', entity_type: 'user', date_from: day(12), date_to: day(3) })],
    ['audit action+actor prefix', () => auditLog({ action: 'auth.login_failed', actor: 'learner1' })],
    ['audit entity_type+dates', () => auditLog({ entity_type: 'user', date_from: day(12), date_to: day(3) })],
    ['per-user audit', () => userAuditLog(sample, {})],
    ['per-user audit, heavy account', () => userAuditLog(heavy, {})],
    ['user detail', () => userDetail(sample)],
    ['user detail, heavy account', () => userDetail(heavy)],
    ['hard-delete preview, heavy account', () => hardDeletePreview(heavy)],
    ['hard-delete preview, the admin (actor of every lock)', () => hardDeletePreview(data.BENCH_ADMIN.id)],
    ['data export, heavy account (first answer)', () => exportAccountData(heavyUser, program().modules)],
    [
      'data export, heavy account (whole document)',
      async () => exportDocument(heavy, await exportAccountData(heavyUser, program().modules)),
    ],
  ];

  const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  async function timed(fn: () => Promise<unknown>) {
    await fn(); // warm
    const times: number[] = [];
    for (let r = 0; r < REPS; r++) {
      const start = process.hrtime.bigint();
      await fn();
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    return p50(times);
  }

  async function measure(n: number) {
    const getItem = () => db().send(new GetCommand({ TableName: tableName(), Key: keys.user(sample) }));
    const rawP50 = await timed(getItem);
    const results = new Map<string, Figures>();
    for (const [name, fn] of calls(n)) {
      await fn();
      capacityMeter.reset();
      itemsThisCall = 0;
      await fn();
      const cost = capacityMeter.snapshot();
      const items = itemsThisCall;
      const latency = await timed(fn);
      results.set(name, { rcu: cost.read, calls: cost.calls, items, p50: latency, ratio: latency / rawP50 });
    }
    return { rawP50, results };
  }

  if (PHASE === 'load') {
    const n = Number(env.BENCH_ACCOUNTS);
    const from = Number(env.BENCH_FROM ?? 0); // resume a stopped load (puts are idempotent)
    console.log(`bench:scale load — accounts ${from.toLocaleString('en-US')}–${(n - 1).toLocaleString('en-US')} into ${tableName()}`);
    await data.loadItems(data.adminItems(clock));
    await load(from, n);
    return;
  }
  if (PHASE === 'measure') {
    const n = Number(env.BENCH_ACCOUNTS);
    const figures = await measure(n);
    writeFileSync(env.BENCH_OUT!, JSON.stringify({ n, rawP50: figures.rawP50, results: Object.fromEntries(figures.results) }, null, 2));
    console.log(`measured ${n.toLocaleString('en-US')} accounts → ${env.BENCH_OUT}`);
    return;
  }
  console.log(
    `bench:scale — small ${SMALL.toLocaleString('en-US')}, large ${LARGE.toLocaleString('en-US')} accounts, ${PARALLEL} parallel BatchWriteItem`,
  );
  await data.loadItems(data.adminItems(clock));
  await load(0, SMALL);
  const small = await measure(SMALL);
  await load(SMALL, LARGE);
  const large = await measure(LARGE);
  report(
    { n: SMALL, rawP50: small.rawP50, results: Object.fromEntries(small.results) },
    { n: LARGE, rawP50: large.rawP50, results: Object.fromEntries(large.results) },
  );
}

/** A call whose RCU grows more than this from the small to the large size reads O(data). */
const RATIO_GOAL = 1.2;

type Figures = { rcu: number; calls: number; items: number; p50: number; ratio: number };
type Measured = { n: number; rawP50: number; results: Record<string, Figures> };

function report(small: Measured, large: Measured) {
  const [SMALL, LARGE] = [small.n, large.n];
  const fmt = (value: number, digits = 1) => value.toFixed(digits);
  const lines = [
    `| call | RCU ${SMALL / 1000}k | RCU ${LARGE / 1000}k | RCU ratio | round trips ${SMALL / 1000}k / ${LARGE / 1000}k | items held ${LARGE / 1000}k | p50 ms ${SMALL / 1000}k / ${LARGE / 1000}k | p50 ÷ GetItem ${SMALL / 1000}k / ${LARGE / 1000}k |`,
    '|---|---|---|---|---|---|---|---|',
    `| raw GetItem | 0.5 | 0.5 | 1.00 | 1 / 1 | 1 | ${fmt(small.rawP50, 2)} / ${fmt(large.rawP50, 2)} | 1 / 1 |`,
  ];
  let worstRatio = 0;
  let worstLatency = 0;
  const findings: string[] = [];
  const notRead: string[] = [];
  for (const name of Object.keys(large.results)) {
    const a = small.results[name];
    const b = large.results[name];
    // a ratio of a call that read nothing at the small size says nothing: it is left out
    const ratio = a.rcu > 0 ? b.rcu / a.rcu : undefined;
    if (ratio === undefined) notRead.push(name);
    else worstRatio = Math.max(worstRatio, ratio);
    if (ratio !== undefined && ratio > RATIO_GOAL) findings.push(`${name}: ${fmt(a.rcu)} → ${fmt(b.rcu)} RCU (${ratio.toFixed(2)} ×)`);
    worstLatency = Math.max(worstLatency, b.ratio);
    lines.push(
      `| ${name} | ${fmt(a.rcu)} | ${fmt(b.rcu)} | ${ratio === undefined ? 'n/a (small read 0)' : ratio.toFixed(2)} | ${a.calls} / ${b.calls} | ${b.items} | ${fmt(a.p50, 2)} / ${fmt(b.p50, 2)} | ${fmt(a.ratio)} / ${fmt(b.ratio)} |`,
    );
  }
  console.log(`\n${lines.join('\n')}\n`);
  console.log(
    `worst RCU ratio ${LARGE / 1000}k/${SMALL / 1000}k: ${worstRatio.toFixed(2)} (goal ≤ ${RATIO_GOAL}); worst p50 ÷ GetItem at ${LARGE / 1000}k: ${worstLatency.toFixed(1)} (goal ≤ 10)`,
  );
  if (notRead.length) console.log(`no ratio (nothing read at ${SMALL / 1000}k): ${notRead.join('; ')}`);
  if (findings.length) console.log(`RCU ratio above ${RATIO_GOAL}:\n  ${findings.join('\n  ')}`);
  if (env.BENCH_OUT && !PHASE) writeFileSync(env.BENCH_OUT, JSON.stringify({ small, large }, null, 2));
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
