import pLimit from 'p-limit';
import * as admin from './admin';
import { BREAKS } from './breaks';
import { FaultLog, FAULT_KINDS, planFaults } from './faults';
import * as learner from './learner';
import { codeIn } from './mail';
import { dayOfMs, newAccount, Oracle, type AccountModel } from './oracle';
import { makePopulation, visitChance, type Persona } from './population';
import { Rng } from './rng';
import { SimClock } from './sim-clock';
import { startTwin } from './twin';
import { checkAuditComplete, checkCounters, checkErasure, checkLearnerWork, checkServerErrors } from './invariants';
import { checkReminders } from './reminder-check';
import { clientFactory, RunRecord, type World } from './world';
import type { SoakOptions } from './options';

/**
 * The simulation (docs/soak.md): a seeded population lives `days` simulated days on the local
 * twin. Each simulated hour: the hourly reminder run (and at 03:00 UTC the daily erasure) with
 * their queue work; the learners' visits of the hour in 5-minute slots, the table's stream read
 * after each slot (unless a fault holds it back); then the administrator's work. Faults strike by
 * the seed's plan. Invariants are checked every simulated day and at the end.
 */
const HOUR_MS = 3600 * 1000;
const SLOT_MINUTES = 5;
/** 2027-03-01T00:00Z: a Monday, with the spring's summer-time changes of both hemispheres inside the month. */
export const SIM_START = Date.parse('2027-03-01T00:00:00Z');

export interface SoakResult {
  options: SoakOptions;
  world: World;
  figures: Record<string, Record<string, number | string>>;
  wallMs: number;
}

interface PlannedAction {
  minute: number;
  seed: number;
  run: (world: World) => Promise<void>;
}

export async function simulate(options: SoakOptions, log: (line: string) => void): Promise<SoakResult> {
  const started = performance.now();
  const rng = new Rng(options.seed);
  const clock = new SimClock(SIM_START);
  process.env.RETENTION_DAYS = String(options.retentionDays);
  process.env.REMINDER_WORKERS ??= '16';
  process.env.ADMIN_EMAIL = 'admin@soak.example';
  process.env.ADMIN_PASSWORD = 'soak-Admin-Password-2027';
  const twin = await startTwin(clock, { sesRate: 1000, sesQuota: 1_000_000 });
  const windows = planFaults(rng.fork('faults'), options.days, { outageHours: options.outageHours, enabled: options.faults });
  const faults = new FaultLog(windows);
  const hours = options.days * 24;
  let hour = 0;
  const activeFaults = () => FAULT_KINDS.filter((kind) => faults.active(kind, hour) && kind !== 'deploy');
  const record = new RunRecord(clock, activeFaults);
  const oracle = new Oracle();
  const people = makePopulation(rng.fork('population'), options.accounts, options.days);
  const clientOf = clientFactory(twin, record);
  const adminClient = clientOf('admin', '192.0.2.10', 'Mozilla/5.0 (soak admin console)');
  oracle.add(
    newAccount({
      email: process.env.ADMIN_EMAIL,
      firstName: 'Admin',
      lastName: 'Soak',
      role: 'admin',
      registeredAt: clock.now(),
      timeZone: 'UTC',
      frequency: 'daily',
      verified: true,
    }),
  );
  const world: World = {
    twin,
    clock,
    oracle,
    record,
    faults,
    rng: rng.fork('world'),
    people,
    hour: 0,
    clientOf,
    admin: { email: process.env.ADMIN_EMAIL, password: process.env.ADMIN_PASSWORD, client: adminClient },
    modules: [],
    retentionDays: options.retentionDays,
    probes: [],
  };
  installFaults(world, rng.fork('fault-strikes'));
  await deliverSomeTwice(
    world,
    rng.fork('duplicates'),
    options.breaks.some((name) => BREAKS[name]?.duplicates),
  );
  installBreaks(world, options.breaks);
  const stream = await streamControl(world);
  const figures: SoakResult['figures'] = {};
  try {
    for (hour = 0; hour < hours; hour++) {
      world.hour = hour;
      clock.set(clock.hourStart(hour));
      if (hour % 24 === 0)
        log(
          `day ${hour / 24 + 1}/${options.days}: ${record.requests} requests, ${oracle.accounts.size} accounts, ${record.violations.length} violations`,
        );
      if (faults.active('deploy', hour)) {
        await twin.redeploy();
        faults.strike('deploy');
      }
      await record.time('scheduled jobs', () => runHourlyJobs(world, stream));
      const plan = planHour(world, hour);
      for (let slot = 0; slot < 60 / SLOT_MINUTES; slot++) {
        const due = plan.filter((action) => Math.floor(action.minute / SLOT_MINUTES) === slot);
        clock.set(clock.hourStart(hour) + slot * SLOT_MINUTES * 60_000);
        const limit = pLimit(options.concurrency);
        await record.time('learners', () =>
          Promise.all(due.map((action) => limit(() => action.run({ ...world, rng: new Rng(action.seed) })))),
        );
        await record.time('stream', () => stream.afterSlot());
      }
      clock.set(clock.hourStart(hour) + 55 * 60_000);
      await record.time('administrator', () => adminHour(world, hour, options));
      await record.time('stream', () => stream.afterSlot());
      if (hour % 24 === 23) await record.time('daily checks', () => dailyChecks(world, stream));
      if (stream.outageEnded(hour)) await stream.recover(log);
    }
    clock.set(clock.hourStart(hours));
    log('final checks…');
    await stream.finish();
    if (!(await admin.adminSignIn(world))) world.record.violate('harness', 'the administrator could not sign in for the final checks');
    await admin.learnIds(world);
    figures.counters = await record.time('final checks', () => checkCounters(world, true));
    figures.audit = await record.time('final checks', () => checkAuditComplete(world));
    figures.learner_work = await record.time('final checks', () => checkLearnerWork(world));
    figures.reminders = checkReminders(world);
    figures.erasure = await record.time('final checks', () => checkErasure(world));
    figures.server_errors = checkServerErrors(world);
    figures.recovery = await recoveryFigures(world);
  } finally {
    clock.uninstall();
    await twin.stop();
  }
  return { options, world, figures, wallMs: performance.now() - started };
}

/** The hour's scheduled jobs, as EventBridge fires them: reminders every hour, the erasure at 03:00 UTC. */
async function runHourlyJobs(world: World, stream: StreamControl): Promise<void> {
  const [{ runAs }, { handler: reminders }, { handler: erasure }, { drainLocalQueues }] = await Promise.all([
    import('../../infra/local/iam/twin'),
    import('../../functions/jobs/reminders'),
    import('../../functions/jobs/erasure'),
    import('../../functions/lib/queue'),
  ]);
  await runAs('reminders', () => reminders());
  await drainQueues(world, drainLocalQueues);
  if (new Date(world.clock.now()).getUTCHours() === 3) {
    const context = { getRemainingTimeInMillis: () => 600_000 } as Parameters<typeof erasure>[1];
    await runAs('erasure', () => erasure({}, context)).catch((error: Error) =>
      world.record.violate('erasure', `the erasure job failed: ${error.message}`),
    );
    // the erasure's purges: while the fault is on, one purge step is always stopped mid-way
    await drainQueues(world, drainLocalQueues, true);
    await noteErasures(world);
  }
  if (new Date(world.clock.now()).getUTCHours() === 4) await reconcile(world, runAs, stream.trailing);
  await stream.afterSlot();
}

/**
 * The daily reconciliation of the admin counters (04:30 UTC in the cloud; here with the hour's
 * other jobs): a drift it reports is a counter that went wrong, which the counters invariant also
 * sees; its corrections are counted.
 */
async function reconcile(
  world: World,
  runAs: (fn: 'reconcile', work: () => Promise<unknown>) => Promise<unknown>,
  trailing: () => boolean,
): Promise<void> {
  const { handler } = await import('../../functions/jobs/reconcile');
  const context = { getRemainingTimeInMillis: () => 900_000 } as Parameters<typeof handler>[1];
  const summary = (await runAs('reconcile', () => handler({}, context)).catch((error: Error) => {
    world.record.violate('counters', `the reconciliation job failed: ${error.message}`);
    return undefined;
  })) as { total_drift: number; day: string } | undefined;
  world.record.count('reconciliation_runs');
  if (!summary?.total_drift) return;
  world.record.count('reconciliation_drift_seen', summary.total_drift);
  // outside an outage's trailing the counters must be true: a drift the reconciliation sees is a counter that went wrong
  if (trailing()) return;
  const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
  const { keys } = await import('../../functions/lib/table');
  const run = await world.twin.operatorDb.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: keys.reconcileRun(summary.day) }));
  world.record.violate(
    'counters',
    `the daily reconciliation saw a drift of ${summary.total_drift}: ${JSON.stringify(run.Item?.drift ?? {}).slice(0, 300)}`,
  );
}

/**
 * Runs the queued work (reminder slices, purge steps). While its fault is on, a worker is stopped
 * mid-message now and then (after a few writes, every call fails): SQS delivers the message again
 * after its visibility timeout, which the local queue does on the simulated clock.
 */
async function drainQueues(world: World, drainLocalQueues: () => Promise<void>, always = false): Promise<void> {
  const kill = world.faults.active('queue_message_killed', world.hour) && (always || world.rng.chance(0.3));
  if (kill) world.twin.dynamo.armCrash(1 + world.rng.int(4));
  try {
    await drainLocalQueues();
  } finally {
    if (kill && world.twin.dynamo.crashed() > 0) world.faults.strike('queue_message_killed');
    world.twin.dynamo.disarm();
  }
}

/**
 * After the erasure run: the accounts it erased (the console answers 404 for them) become erased
 * in the oracle. One whose purge is still running (`purging`) is erased on a later day's look,
 * with its entry expected from the look that first saw it purging.
 */
async function noteErasures(world: World): Promise<void> {
  const retentionMs = world.retentionDays * 24 * HOUR_MS;
  if (!(await admin.adminSignIn(world))) return;
  for (const model of world.oracle.accounts.values()) {
    if (model.status !== 'deleted' || model.deletedAt === undefined || !model.id) continue;
    if (world.clock.now() - model.deletedAt < retentionMs) continue;
    const answer = await world.admin.client.get<{ status?: string }>(`/api/admin/users/${model.id}`);
    // a purge stopped mid-way finishes on a later delivery: the entry dates from its start
    if (answer.status === 200 && answer.body.status === 'purging') model.purgeSeenAt ??= world.clock.now();
    if (answer.status !== 404) continue;
    model.status = 'erased';
    model.erasedAt = world.clock.now();
    world.record.count('erased_by_the_daily_job');
    world.oracle.expect({
      action: 'system.user.hard_delete',
      entityType: 'user',
      entityId: model.id,
      at: model.purgeSeenAt ?? world.clock.now(),
      viaStream: false,
    });
  }
}

/** The learners' actions of one hour, drawn from the seed. */
function planHour(world: World, hour: number): PlannedAction[] {
  const rng = new Rng(world.rng.fork(`hour-${hour}`).int(2 ** 31));
  const day = Math.floor(hour / 24);
  const utcHour = hour % 24;
  const plan: PlannedAction[] = [];
  for (const persona of world.people) {
    const model = world.oracle.account(persona.email) ?? [...world.oracle.accounts.values()].find((m) => m.persona === persona);
    if (day === persona.registerDay && utcHour === persona.registerHour && !model) {
      plan.push({ minute: rng.int(60), seed: rng.int(2 ** 31), run: (w) => learner.register(w, persona) });
      continue;
    }
    if (!model || !model.verified || day <= persona.registerDay) continue;
    // one chance a day, at an hour of the person's own (their local afternoon or evening)
    if (utcHour !== (persona.registerHour + 7 * day) % 24) continue;
    const daysIn = day - persona.registerDay;
    if (
      model.status === 'deleted' &&
      model.deletedBy === 'self' &&
      persona.restoreAfterDays !== undefined &&
      model.deletedAt !== undefined
    ) {
      // within the retention period only: past it the account can no longer be restored (docs/product.md)
      const deletedFor = world.clock.now() - model.deletedAt;
      if (deletedFor >= persona.restoreAfterDays * 24 * HOUR_MS && deletedFor < world.retentionDays * 24 * HOUR_MS - HOUR_MS)
        plan.push({ minute: rng.int(60), seed: rng.int(2 ** 31), run: (w) => learner.selfRestore(w, persona, model) });
      continue;
    }
    if (model.status !== 'active') continue;
    if (persona.selfDeleteDay === day) {
      plan.push({
        minute: rng.int(60),
        seed: rng.int(2 ** 31),
        run: (w) => signInThen(w, persona, model, () => learner.selfDelete(w, persona, model)),
      });
      continue;
    }
    if (rng.chance(visitChance(persona, daysIn))) {
      plan.push({ minute: rng.int(60), seed: rng.int(2 ** 31), run: (w) => learner.visit(w, persona, model) });
    }
    if (
      persona.unsubscribeChance &&
      model.frequency !== 'off' &&
      rng.chance(persona.unsubscribeChance) &&
      world.twin.ses.mailbox.to(model.email, /^Next up:/).length
    )
      plan.push({ minute: rng.int(60), seed: rng.int(2 ** 31), run: (w) => learner.unsubscribe(w, persona, model) });
  }
  return plan;
}

async function signInThen(world: World, persona: Persona, model: AccountModel, then: () => Promise<void>): Promise<void> {
  if (await learner.signIn(world, persona, model)) await then();
}

/** The administrator's hour: a few actions, sized to the population, one after another. */
async function adminHour(world: World, hour: number, options: SoakOptions): Promise<void> {
  const utcHour = hour % 24;
  if (utcHour < 8 || utcHour > 17) return;
  if (!(await admin.adminSignIn(world))) return;
  const rng = new Rng(world.rng.fork(`admin-${hour}`).int(2 ** 31));
  const scaled = (perThousandADay: number) => {
    const mean = (options.accounts * perThousandADay) / 1000 / 10;
    return Math.floor(mean) + (rng.chance(mean - Math.floor(mean)) ? 1 : 0);
  };
  const w = { ...world, rng };
  if (utcHour === 8) await admin.learnIds(w);
  for (let n = scaled(20); n > 0; n--) await admin.searchUsers(w);
  for (let n = scaled(8); n > 0; n--) await admin.editProfile(w);
  for (let n = scaled(4); n > 0; n--) await admin.lockOrUnlock(w);
  for (let n = scaled(3); n > 0; n--) await admin.softDelete(w);
  for (let n = scaled(1); n > 0; n--) await admin.restore(w);
  for (let n = scaled(2); n > 0; n--) await admin.hardDelete(w);
  for (let n = scaled(4); n > 0; n--) await admin.overrideModule(w);
  if (utcHour === 12 && Math.floor(hour / 24) % 10 === 5) await admin.publishVersion(w);
}

async function dailyChecks(world: World, stream: StreamControl): Promise<void> {
  await stream.afterSlot();
  if (!(await admin.adminSignIn(world))) return;
  await checkCounters(world, !stream.trailing());
}

/**
 * Every fault recovered from: the local queues hold no dead letter (a message that failed every
 * delivery), and every fault kind that was planned struck at least once.
 */
async function recoveryFigures(world: World): Promise<Record<string, number>> {
  const { localDeadLetters } = await import('../../functions/lib/queue');
  const dead = localDeadLetters();
  for (const letter of dead.slice(0, 5)) world.record.violate('recovery', `a ${letter.queue} message is a dead letter: ${letter.error}`);
  return { dead_letters: dead.length, ...Object.fromEntries([...world.faults.struck].map(([kind, times]) => [kind, times])) };
}

// ---------------------------------------------------------------- faults

/** The DynamoDB and SES faults, struck by the seed while their window is open. */
function installFaults(world: World, rng: Rng): void {
  world.twin.dynamo.decide = (operation) => {
    if (world.faults.active('dynamodb_throttle', world.hour) && rng.chance(0.03)) {
      world.faults.strike('dynamodb_throttle');
      return 'throttle';
    }
    if (operation === 'TransactWriteItems' && world.faults.active('transaction_conflict', world.hour) && rng.chance(0.25)) {
      world.faults.strike('transaction_conflict');
      return 'conflict';
    }
    return 'pass';
  };
  world.twin.ses.refuse = () => {
    if (world.faults.active('ses_quota_spent', world.hour)) {
      world.faults.strike('ses_quota_spent');
      return 'quota';
    }
    if (world.faults.active('ses_throttle', world.hour) && rng.chance(0.3)) {
      world.faults.strike('ses_throttle');
      return 'rate';
    }
    return undefined;
  };
}

/**
 * SQS delivers a message at least once: while that fault's window is open (or a break needs it),
 * a message now and then reaches two workers at once.
 */
async function deliverSomeTwice(world: World, rng: Rng, always: boolean): Promise<void> {
  const [{ localWorkers }, { registerLocalConsumer }] = await Promise.all([
    import('../../infra/local/background-work'),
    import('../../functions/lib/queue'),
  ]);
  for (const [name, consumer] of Object.entries(await localWorkers())) {
    registerLocalConsumer(name as 'purge' | 'reminders', async (message) => {
      if ((always || world.faults.active('queue_message_duplicated', world.hour)) && rng.chance(0.3)) {
        world.faults.strike('queue_message_duplicated');
        await Promise.all([consumer(message), consumer(message)]);
      } else await consumer(message);
    });
  }
}

/** The deliberate breaks asked for (breaks.ts), in front of DynamoDB Local. */
function installBreaks(world: World, names: string[]): void {
  const breaks = names.map((name) => {
    const found = BREAKS[name];
    if (!found) throw new Error(`unknown break "${name}": one of ${Object.keys(BREAKS).join(', ')}`);
    return found;
  });
  if (!breaks.length) return;
  // each break rewrites what the previous one left
  world.twin.dynamo.rewrite = (operation, input) => {
    let current: Record<string, unknown> | undefined;
    for (const { rewrite } of breaks) {
      const result = rewrite(operation, current ?? input);
      if (result === 'drop' || result === 'fail') return result;
      if (result) current = result;
    }
    return current;
  };
}

// ---------------------------------------------------------------- the stream

/**
 * The sign-ins whose `auth.login` entry is timed: found once its reference by entity is stored
 * (what the user's Audit tab reads; an operator's direct read, no session needed). The lag is
 * simulated time from the sign-in's answer to the read of the stream that wrote it.
 */
async function checkProbes(world: World, duringOutage: (at: number) => boolean): Promise<void> {
  const { QueryCommand } = await import('@aws-sdk/lib-dynamodb');
  const pending = world.probes.splice(0);
  for (const probe of pending) {
    const page = await world.twin.operatorDb.send(
      new QueryCommand({
        TableName: process.env.TABLE_NAME,
        KeyConditionExpression: 'pk = :pk AND sk >= :from',
        FilterExpression: '#action = :login',
        ExpressionAttributeNames: { '#action': 'action' },
        ExpressionAttributeValues: {
          ':pk': `AUDITREF#ENTITY#user#${probe.userId}`,
          ':from': new Date(probe.at - 15 * 60_000).toISOString(),
          ':login': 'auth.login',
        },
      }),
    );
    if (page.Items?.length)
      world.record.lag(
        duringOutage(probe.at) ? `${probe.kind}, signed in during the outage (rebuilt)` : probe.kind,
        world.clock.now() - probe.at,
      );
    else world.probes.push(probe);
  }
}

interface StreamControl {
  afterSlot: () => Promise<void>;
  /** True while derived data legitimately trails (an outage not yet recovered). */
  trailing: () => boolean;
  outageEnded: (hour: number) => boolean;
  recover: (log: (line: string) => void) => Promise<void>;
  finish: () => Promise<void>;
}

/**
 * The table's stream as the simulation reads it: after every slot, unless a delay holds it back
 * (read once an hour then) or an outage stops it (nothing read; at its end the records older
 * than the stream's 24 hours are gone, and the runbook's recovery runs: the rebuild of the
 * outage's days). A batch killed mid-way is delivered again, as Lambda retries it.
 */
async function streamControl(world: World): Promise<StreamControl> {
  const { drainActivityStream, discardActivityStream } = await import('../../infra/local/activity-stream');
  const outage = world.faults.windowOf('stream_outage');
  let recovered = !outage;
  let recoveredAt = Number.POSITIVE_INFINITY;
  const drain = async () => {
    for (let attempt = 0; attempt < 10; attempt++) {
      const kill = world.faults.active('stream_batch_killed', world.hour) && world.rng.chance(0.5);
      if (kill) world.twin.dynamo.armCrash(world.rng.int(3));
      try {
        await drainActivityStream();
        world.twin.dynamo.disarm();
        await checkProbes(world, (at) => Boolean(outage && at >= world.clock.hourStart(outage.from) && at < recoveredAt));
        return;
      } catch (error) {
        world.twin.dynamo.disarm();
        if (!kill) throw error;
        world.faults.strike('stream_batch_killed');
      }
    }
  };
  const inOutage = () => Boolean(outage && world.hour >= outage.from && world.hour < outage.to);
  // nothing was written since the last read: the stream has nothing new for the aggregator (a quiet slot)
  let writesAtLastRead = -1;
  return {
    afterSlot: async () => {
      if (inOutage()) return;
      if (outage && world.hour >= outage.to && !recovered) return;
      if (world.faults.active('stream_delay', world.hour) && new Date(world.clock.now()).getUTCMinutes() < 55) {
        // held back: read once an hour while the delay lasts
        world.faults.strike('stream_delay');
        return;
      }
      if (world.twin.dynamo.writes() === writesAtLastRead) return;
      await drain();
      // the aggregator's own writes make records it has nothing to do with
      writesAtLastRead = world.twin.dynamo.writes();
    },
    trailing: () => Boolean(outage && world.hour >= outage.from && !recovered),
    outageEnded: (hour) => Boolean(outage && hour === outage.to - 1),
    recover: async (log) => {
      // the records of the outage are past the stream's 24 hours: gone, as in the cloud
      const lost = await discardActivityStream();
      world.faults.strike('stream_outage');
      world.record.count('stream_records_lost_in_the_outage', lost);
      const from = dayOfMs(world.clock.hourStart(outage!.from));
      const to = dayOfMs(world.clock.now());
      log(`stream outage over (${lost} records lost): rebuilding ${from} … ${to}`);
      await rebuild(world, from, to);
      recoveredAt = world.clock.now();
      recovered = true;
    },
    finish: async () => {
      if (!recovered) recovered = true;
      await drain();
    },
  };
}

/**
 * The runbook's recovery after an outage longer than the stream keeps its records
 * (docs/runbook.md "Rebuilding derived data"): `npm run rebuild -- --from <outage's first day>
 * --to <today>`, run as an operator runs it (no function's role), with its own reconciliation.
 */
async function rebuild(world: World, from: string, to: string): Promise<void> {
  const [{ rebuildDerivedData }, { runAsOperator }] = await Promise.all([
    import('../../functions/admin/derived-data-rebuild'),
    import('../../infra/local/iam/twin'),
  ]);
  const result = await runAsOperator(() => rebuildDerivedData({ from, to }));
  world.record.count('rebuild_runs');
  for (const [kind, n] of Object.entries(result.counts)) world.record.count(`rebuilt: ${kind}`, Number(n));
}

export { codeIn };
