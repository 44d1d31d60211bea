import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../functions/accounts/passwords';
import { aggregateActivity } from '../../functions/lib/activity-aggregation';
import { dayOf } from '../../functions/lib/activity';
import { capacityMeter, db, tableName } from '../../functions/lib/db';
import { readDayCounters } from '../../functions/lib/stats';
import { keys } from '../../functions/lib/table';
import { auditEntryOf } from '../../functions/lib/audit';
import { writeSignInAudits } from '../../functions/lib/sign-in-audit';
import { insertUser, searchItemKeys } from '../../functions/lib/users';
import { drainActivityStream } from '../../infra/local/activity-stream';
import { runAs } from '../../infra/local/iam/twin';
import { MEASURED } from '../bench/cost-model';
import { codeIn, latestEmail, useApi } from '../helpers/api';
import { storedAuditEntries } from '../helpers/audit-entries';

/**
 * What a sign-in writes on the request path (docs/scale-writes.md "Activity off the request
 * path"), with the consumed capacity DynamoDB Local returns for each call, and what the
 * activity aggregator makes of it from the table's stream.
 */
const api = useApi();
const PASSWORD = 'violet tangerine orbit';

const dayCount = async (counter: 'DAILYACTIVE' | 'LASTACTIVE', day: string) =>
  Number((await readDayCounters(counter, day, day)).get(day)?.count ?? 0);

async function newLearner() {
  const email = `cost-${randomUUID().slice(0, 8)}@example.com`;
  const user = await insertUser({
    email,
    first_name: 'Ada',
    last_name: 'Lovelace',
    password_hash: await hashPassword(PASSWORD),
    verified: true,
  });
  return { email, user };
}

/** The account's session items (their string attributes). */
async function sessionsOf(userId: string) {
  const found = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :session)',
      ExpressionAttributeValues: { ':pk': keys.user(userId).pk, ':session': 'SESSION#' },
    }),
  );
  return (found.Items ?? []).map((item) =>
    Object.fromEntries(Object.entries(item).filter(([, value]) => typeof value === 'string')),
  ) as Array<Record<string, string>>;
}

/** The audit entries about the account (the drawer's references), as the API answers them. */
const entriesOf = async (userId: string) => (await storedAuditEntries('user', userId)).map(auditEntryOf);

/** String attributes as a stream image carries them. */
const streamImage = (item: Record<string, string>) => Object.fromEntries(Object.entries(item).map(([name, value]) => [name, { S: value }]));

/** A stream record of the account's last-active day moving from `previous` to `day`, as Lambda delivers it. */
function activityRecord(user: { id: string; email: string }, day: string, previous?: string): DynamoDBRecord {
  const profile = { ...keys.user(user.id), status: 'active', email: user.email, first_name: 'Ada', last_name: 'Lovelace' };
  return {
    eventName: 'MODIFY',
    dynamodb: {
      NewImage: streamImage({ ...profile, last_active_day: day }),
      OldImage: streamImage(previous ? { ...profile, last_active_day: previous } : profile),
    },
  };
}

/** The keys a command writes (an Update, a Put or each item of a transaction). */
function writtenKeys(input: Record<string, unknown>): string[] {
  const keyOf = (entry: { Key?: { pk: string; sk: string }; Item?: { pk: string; sk: string } }) => {
    const key = entry.Key ?? entry.Item;
    return key ? `${key.pk}|${key.sk}` : '';
  };
  const items = (input.TransactItems as Array<Record<string, never>> | undefined)?.map((item) => Object.values(item)[0]) ?? [input];
  return items.map((item) => keyOf(item as never)).filter(Boolean);
}

/** Every command the handlers send through the shared client while `work` runs, with its consumed capacity. */
async function traceCalls(work: () => Promise<void>) {
  const client = db();
  const send = client.send.bind(client);
  const calls: Array<{ keys: string[]; units: number }> = [];
  const spy = vi.spyOn(client, 'send').mockImplementation((async (command: { input: Record<string, unknown> }) => {
    const output = (await send(command as never)) as { ConsumedCapacity?: { CapacityUnits?: number } | Array<{ CapacityUnits?: number }> };
    const units = [output.ConsumedCapacity ?? []].flat().reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);
    const writes = /^(Put|Update|Delete|TransactWrite|BatchWrite)/.test(command.constructor.name);
    calls.push({ keys: writes ? writtenKeys(command.input) : [], units });
    return output;
  }) as never);
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return calls;
}

describe('sign-in cost on the request path', () => {
  it('a first sign-in of the day writes the account once (sign-in time, last-active day, known browser) and no counter, marker, search item, audit entry or browser item', async () => {
    const { email, user } = await newLearner();
    const client = api.client();
    const login = await client.post('/api/auth/login', { email, password: PASSWORD });
    expect(login.status).toBe(200);
    const code = codeIn(await latestEmail(email, /login code/i));
    const calls = await traceCalls(async () => {
      const verify = await client.post('/api/auth/verify-2fa', { email, code, challenge_id: login.body.challenge_id });
      expect(verify.status).toBe(200);
    });

    const written = calls.flatMap((call) => call.keys);
    expect(written.filter((key) => /^(STATS#|ACTIVITY#|USERSEARCH#|AUDIT#|AUDITREF#)|\|BROWSER#/.test(key))).toEqual([]);
    const accountWrites = calls.filter((call) => call.keys.includes(`USER#${user.id}|PROFILE`));
    expect(accountWrites).toHaveLength(1);
    // one account-sized update (its index copies included): DynamoDB Local reports 3 units for it
    expect(accountWrites[0].units).toBeLessThanOrEqual(3);
    const stored = await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(user.id) }));
    expect(stored.Item).toMatchObject({ last_active_day: dayOf(new Date()), last_login_at: expect.any(String) as string });
    expect(Object.keys(stored.Item?.known_browsers as object)).toHaveLength(1);
  });
  it('costs no more than the cost model assumes (docs/cost-model.md): calls and capacity units of login + verify-2fa', async () => {
    const { email } = await newLearner();
    const client = api.client();
    // the meter is reset at the start of every request (functions/lib/http.ts): read it after each
    const login = await client.post('/api/auth/login', { email, password: PASSWORD });
    expect(login.status).toBe(200);
    const atLogin = capacityMeter.snapshot();
    const code = codeIn(await latestEmail(email, /login code/i));
    expect((await client.post('/api/auth/verify-2fa', { email, code, challenge_id: login.body.challenge_id })).status).toBe(200);
    const atVerify = capacityMeter.snapshot();
    expect(atLogin.calls + atVerify.calls).toBeLessThanOrEqual(MEASURED.signIn.calls);
    expect(atLogin.read + atVerify.read).toBeLessThanOrEqual(MEASURED.signIn.readUnits);
    expect(atLogin.write + atVerify.write).toBeLessThanOrEqual(MEASURED.signIn.writeUnits);
  });
});

describe('the activity aggregator (the table stream)', () => {
  it("counts a sign-in's first activity of the day once the stream is drained: marker, day counters, search items", async () => {
    const { email, user } = await newLearner();
    const day = dayOf(new Date());
    await drainActivityStream(); // what earlier tests wrote
    const [activeBefore, lastActiveBefore] = await Promise.all([dayCount('DAILYACTIVE', day), dayCount('LASTACTIVE', day)]);
    const client = api.client();
    const login = await client.post('/api/auth/login', { email, password: PASSWORD });
    const code = codeIn(await latestEmail(email, /login code/i));
    expect((await client.post('/api/auth/verify-2fa', { email, code, challenge_id: login.body.challenge_id })).status).toBe(200);

    await drainActivityStream();
    expect(await dayCount('DAILYACTIVE', day)).toBe(activeBefore + 1);
    expect(await dayCount('LASTACTIVE', day)).toBe(lastActiveBefore + 1);
    const marker = await db().send(new GetCommand({ TableName: tableName(), Key: keys.activity(day, user.id) }));
    expect(marker.Item).toMatchObject({ user_id: user.id, day });
    for (const key of searchItemKeys(user)) {
      const item = await db().send(new GetCommand({ TableName: tableName(), Key: key }));
      expect(item.Item?.last_active_day).toBe(day);
    }
  });

  it('counts each move once when Lambda delivers a batch again, or a split half of it', async () => {
    const [first, second] = await Promise.all([newLearner(), newLearner()]);
    const day = '2026-02-11';
    const previous = '2026-02-03';
    const records = [
      activityRecord({ id: first.user.id, email: first.email }, day, previous),
      activityRecord({ id: second.user.id, email: second.email }, day),
    ];
    const aggregate = (batch: DynamoDBRecord[]) => runAs('activityStream', () => aggregateActivity(batch));

    expect(await aggregate(records.slice(0, 1))).toEqual({ moves: 1, counted: 1 });
    // the whole batch again (a retry after the first half was written): only the second move is new
    expect(await aggregate(records)).toEqual({ moves: 2, counted: 1 });
    expect(await aggregate(records)).toEqual({ moves: 2, counted: 0 });

    expect(await dayCount('DAILYACTIVE', day)).toBe(2);
    expect(await dayCount('LASTACTIVE', day)).toBe(2);
    expect(await dayCount('LASTACTIVE', previous)).toBe(-1);
  });

  it("writes a sign-in's auth.login entry from its session item once the stream is drained, once however often it is delivered", async () => {
    const { email, user } = await newLearner();
    const client = api.client();
    const login = await client.post('/api/auth/login', { email, password: PASSWORD });
    const code = codeIn(await latestEmail(email, /login code/i));
    expect((await client.post('/api/auth/verify-2fa', { email, code, challenge_id: login.body.challenge_id })).status).toBe(200);
    await drainActivityStream();
    const [session] = await sessionsOf(user.id);
    const logins = (await entriesOf(user.id)).filter((entry) => entry.action === 'auth.login');
    expect(logins).toEqual([
      expect.objectContaining({
        id: session.sk.slice('SESSION#'.length),
        actor_email: email,
        ip: session.ip,
        created_at: session.created_at,
      }),
    ]);

    const insert: DynamoDBRecord = { eventName: 'INSERT', dynamodb: { NewImage: streamImage(session) } };
    expect(await runAs('activityStream', () => writeSignInAudits([insert, insert]))).toBe(0);
    expect((await entriesOf(user.id)).filter((entry) => entry.action === 'auth.login')).toHaveLength(1);
  });

  it('ignores records that move no last-active day forward', async () => {
    const { email, user } = await newLearner();
    const same = activityRecord({ id: user.id, email }, '2026-02-20', '2026-02-20');
    const backwards = activityRecord({ id: user.id, email }, '2026-02-19', '2026-02-20');
    const insert = { ...activityRecord({ id: user.id, email }, '2026-02-21'), eventName: 'INSERT' as const };
    expect(await runAs('activityStream', () => aggregateActivity([same, backwards, insert]))).toEqual({ moves: 0, counted: 0 });
  });
});
