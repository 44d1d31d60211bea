import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { reconcileCounters, type ReconcileOptions } from '../../functions/admin/counter-reconcile';
import { handler } from '../../functions/jobs/reconcile';
import { dayOf, recordActivity } from '../../functions/lib/activity';
import { capacityMeter, db, tableName } from '../../functions/lib/db';
import { readDayCounters, readStats } from '../../functions/lib/stats';
import { INDEX, keys } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { program } from '../../functions/program/content';
import { drainActivityStream } from '../../infra/local/activity-stream';
import { runAs } from '../../infra/local/iam/twin';
import { type ApiClient, useApi } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';
import { finishModule } from './program-helpers';

/**
 * The daily reconciliation of the admin counters (functions/admin/counter-reconcile.ts,
 * docs/runbook.md "Counter drift"), run as the reconcile function's IAM role against a table of
 * learners made through the product's own writes: enrolled, part-way through the program, active
 * on several days, locked, soft-deleted, unverified. This file has its own table: the data below is
 * all there is.
 */
const api = useApi();
const DAY = 24 * 3600 * 1000;
const TODAY = new Date();
const TOMORROW = new Date(TODAY.getTime() + DAY);
const daysAgo = (n: number) => new Date(TODAY.getTime() - n * DAY);
const reconcile = (options: ReconcileOptions = {}) => runAs('reconcile', () => reconcileCounters({ now: TODAY, ...options }));
let admin: ApiClient;
const learners: UserRecord[] = [];

/** Adds to one field of a STATS#GLOBAL shard, or of one day counter item, as a wrong write would. */
async function addToCounter(key: Record<string, string>, field: string, delta: number) {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'ADD #f :d',
      ExpressionAttributeNames: { '#f': field },
      ExpressionAttributeValues: { ':d': delta },
    }),
  );
}

const post = async (client: ApiClient, path: string, body: unknown = {}) => expect((await client.post(path, body)).status, path).toBe(200);

beforeAll(async () => {
  const staff = await createTestUser({ role: 'admin' });
  admin = api.client();
  await signIn(admin, staff);
  for (let i = 0; i < 11; i++) learners.push(await createTestUser({ first_name: `Learner${i}`, verified: i % 4 !== 0 }));
  // five enrolled, two of them a module further (progress, funnel, percent, week 1 on time)
  for (const [index, learner] of learners.slice(0, 5).entries()) {
    const client = api.client();
    await signIn(client, learner);
    await post(client, '/api/enroll');
    if (index < 2) await finishModule(client, program().modules[0].slug);
  }
  // an admin's own preview: never counted
  await post(admin, '/api/enroll', { preview: true });
  // activity on several days of the window, and one before it
  await Promise.all([
    ...learners.slice(5, 8).map((learner) => recordActivity(learner.id, daysAgo(3))),
    recordActivity(learners[8].id, daysAgo(12)),
    recordActivity(learners[9].id, daysAgo(40)),
  ]);
  await drainActivityStream();
  await recordActivity(learners[5].id, daysAgo(1)); // moves from 3 days ago
  await post(admin, `/api/admin/users/${learners[6].id}/lock`);
  await post(admin, `/api/admin/users/${learners[3].id}/soft-delete`, { reason: 'test' });
  await post(admin, `/api/admin/users/${learners[8].id}/lock`);
  await post(admin, `/api/admin/users/${learners[8].id}/soft-delete`, { reason: 'test' });
  await drainActivityStream();
}, 120_000);

describe('the reconciliation of the counters', () => {
  it('finds nothing to correct where the writes kept every counter, and records the run', async () => {
    const result = await reconcile();
    expect(result).toMatchObject({ finished: true, day: dayOf(TODAY), accounts: 12, drift: {}, corrected: {}, totalDrift: 0 });
    const run = (await db().send(new GetCommand({ TableName: tableName(), Key: keys.reconcileRun(dayOf(TODAY)) }))).Item;
    expect(run).toMatchObject({ done: true, drift: {}, corrected: {}, accounts: 12 });
    expect(run?.truth).toBeUndefined(); // the walk's sums go with its checkpoint
  });

  it('sees a drift injected into a shard and a day, leaves it on the first run, corrects it on the second, then finds none', async () => {
    const before = await readStats();
    const day = dayOf(daysAgo(3));
    await addToCounter(keys.statsShard(4), 'users_total', 3);
    await addToCounter(keys.lastActiveDayShard(day, 7), 'count_locked', -1);
    const first = await reconcile();
    expect(first.drift).toEqual({ 'GLOBAL/users_total': -3, [`LASTACTIVE/${day}/count_locked`]: 1 });
    expect(first.corrected).toEqual({});
    expect((await readStats()).users_total).toBe(before.users_total + 3);

    const second = await reconcile({ now: TOMORROW });
    expect(second.drift).toEqual(first.drift);
    expect(second.corrected).toEqual(first.drift);
    expect(second.totalDrift).toBe(4);
    expect((await readStats()).users_total).toBe(before.users_total);
    expect((await readDayCounters('LASTACTIVE', day, day)).get(day)?.count_locked).toBe(1);
    // corrected on shard 0 and one shard of the day: the sums are right whatever shard holds them
    const shard0 = (await db().send(new GetCommand({ TableName: tableName(), Key: keys.statsShard(0) }))).Item;
    expect(Number(shard0?.users_total)).toBeLessThan(before.users_total);

    const third = await reconcile({ now: TOMORROW });
    expect(third).toMatchObject({ drift: {}, corrected: {}, totalDrift: 0 });
  });

  it('leaves a transient difference alone: gone by the next run, or there with another value', async () => {
    const shard = keys.statsShard(2);
    await addToCounter(shard, 'enrollments_total', 2); // counted before its source exists (a write racing the walk)
    expect((await reconcile()).drift).toEqual({ 'GLOBAL/enrollments_total': -2 });
    await addToCounter(shard, 'enrollments_total', -1);
    const changed = await reconcile();
    expect(changed.drift).toEqual({ 'GLOBAL/enrollments_total': -1 });
    expect(changed.corrected).toEqual({});
    await addToCounter(shard, 'enrollments_total', -1);
    expect(await reconcile()).toMatchObject({ drift: {}, corrected: {} });
    expect((await reconcile()).corrected).toEqual({});
  });

  it('with correct: false records the drift and changes neither a counter nor what the next run compares with', async () => {
    await addToCounter(keys.statsShard(1), 'users_verified', 1);
    const observed = await reconcile({ correct: false });
    expect(observed.drift).toEqual({ 'GLOBAL/users_verified': -1 });
    const again = await reconcile({ correct: false });
    expect(again.corrected).toEqual({});
    // the correcting runs still need to see it twice themselves
    expect((await reconcile()).corrected).toEqual({});
    expect((await reconcile()).corrected).toEqual({ 'GLOBAL/users_verified': -1 });
  });

  it('resumes from its checkpoint after running out of time, with the sums of the pages walked before', async () => {
    const stopped = await reconcile({ pageSize: 4, timeLeftMs: () => 1_000 });
    expect(stopped).toMatchObject({ finished: false, accounts: 4 });
    const checkpoint = (await db().send(new GetCommand({ TableName: tableName(), Key: keys.reconcileRun(dayOf(TODAY)) }))).Item;
    expect(checkpoint).toMatchObject({ done: false, page: 1, accounts: 4 });
    expect(Object.keys(checkpoint?.truth as object).length).toBeGreaterThan(0);

    const queries: Array<Record<string, unknown>> = [];
    const send = db().send.bind(db());
    const spy = vi.spyOn(db(), 'send').mockImplementation(((command: { input: Record<string, unknown> }) => {
      // a copy: the paginator sends the next page with the same input object
      if (command.input.IndexName === INDEX.usersByStatus.indexName) queries.push({ ...command.input });
      return send(command as never);
    }) as never);
    try {
      const resumed = await reconcile({ pageSize: 4 });
      expect(resumed).toMatchObject({ finished: true, accounts: 12, drift: {}, corrected: {} });
    } finally {
      spy.mockRestore();
    }
    // the first page read is the one after the checkpoint's position
    expect(queries[0].ExclusiveStartKey).toEqual((checkpoint?.position as { key: unknown }).key);
    expect(queries.length).toBeLessThan(12 / 4 + 3);
  });

  it('is the scheduled Lambda: publishes what it saw, and fails out of time so that the retry resumes', async () => {
    const context = (ms: number) => ({ getRemainingTimeInMillis: () => ms }) as Context;
    await expect(runAs('reconcile', () => handler({}, context(1_000)))).rejects.toThrow(/out of time .* the retry resumes it/);
    expect(await runAs('reconcile', () => handler({}, context(900_000)))).toMatchObject({ finished: true, accounts: 12, total_drift: 0 });
  });

  it('costs a few read units an account and writes only its checkpoint and record (DynamoDB Local consumed capacity)', async () => {
    capacityMeter.reset();
    const result = await reconcile();
    const units = capacityMeter.snapshot();
    expect(result.accounts).toBe(12);
    // a page's index Query and enrollments BatchGet, the 31 days' marker counts, the counters' reads
    expect(units.read).toBeLessThan(40);
    // the run's start, one checkpoint, its end with the previous run's record (a transaction: its items count twice)
    expect(units.write).toBeLessThanOrEqual(8);
    console.log(`reconciliation of ${result.accounts} accounts: ${JSON.stringify(units)}`);
  });
});
