import { GetAccountCommand, SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Context, SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runErasure } from '../../functions/admin/erasure';
import { hardDeleteUser } from '../../functions/admin/hard-delete';
import { softDeleteUser } from '../../functions/admin/user-status';
import { handler as reminderWorkerFunction } from '../../functions/jobs/reminder-worker';
import { hourName } from '../../functions/jobs/reminder-run-hour';
import { handler as reminderScheduleFunction } from '../../functions/jobs/reminders';
import { runPurgeMessage } from '../../functions/jobs/purge';
import { dayOf } from '../../functions/lib/activity';
import { db, tableName } from '../../functions/lib/db';
import { drainLocalQueues, unregisterLocalConsumers } from '../../functions/lib/queue';
import { indexAttributes, indexKeys, indexPartition, keys } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { program } from '../../functions/program/content';
import { reminderPartitions, reminderShard } from '../../functions/program/reminder-index';
import {
  partitionsWithLearners,
  processReminderSlice,
  reminderMessages,
  runReminders,
  SLICE_PREFIXES,
  sliceCheckpointKey,
} from '../../functions/program/reminders';
import { registerLocalWorkers } from '../../infra/local/background-work';
import { runAs } from '../../infra/local/iam/twin';
import { emailsTo, useApi } from '../helpers/api';
import { zoneWhoseMorningIs } from '../helpers/time-zones';
import { createTestUser, signIn } from '../helpers/users';
import { setUserFields } from './program-helpers';
import { UTC_LEARNERS_HOUR } from '../helpers/due-learners';

/**
 * The background functions as they run in the cloud, each as its own Lambda function's IAM role
 * (infra/local/iam/twin.ts) and chained through the queues the way SQS chains them: the daily
 * reminder schedule and its workers, a worker near its timeout, a hard delete that runs entirely
 * in the purge worker, and the erasure of an account with every kind of data. Each path uses
 * grants nothing else uses, so the IAM twin's grants report also rests on these tests.
 */
const api = useApi();
const content = program();
const DAY = 24 * 3600 * 1000;
const RETENTION_DAYS = 30;
const noSleep = async () => {};
const admin = { admin: { id: 'admin-jobs-test', email: 'admin@example.com' }, ip: '203.0.113.9', userAgent: 'test' };
const lambdaContext = (remainingMs: number) => ({ getRemainingTimeInMillis: () => remainingMs }) as Context;

const item = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
const reminders = async (user: UserRecord) => (await emailsTo(user.email)).filter((email) => /^Next up: /.test(email.subject));

async function enrolledLearner(name: string, timeZone?: string): Promise<UserRecord> {
  const user = await createTestUser({ first_name: name });
  const client = api.client();
  await signIn(client, user);
  if (timeZone) expect((await client.post('/api/settings/notifications', { time_zone: timeZone })).status).toBe(200);
  expect((await client.post('/api/enroll')).status).toBe(200);
  return user;
}

/** An account with something of every kind the purge removes: sessions, answers, a passkey, a certificate, activity days. */
async function accountWithEverything(name: string, deletedDaysAgo: number): Promise<UserRecord> {
  const user = await createTestUser({ first_name: name });
  const today = dayOf(new Date());
  const yesterday = dayOf(new Date(Date.now() - DAY));
  const code = `CODE-${user.id.toUpperCase()}`;
  const put = (entry: Record<string, unknown>) => db().send(new UpdateCommand(toUpdate(entry)));
  await Promise.all([
    put({ ...keys.session(user.id, 's-1'), type: 'session', user_id: user.id }),
    put({ ...keys.taskAnswer(user.id, content.id, 'm', 't'), type: 'task_answer', answer: `I am ${name}` }),
    put({ ...keys.passkey(user.id, `hash-${user.id}`), type: 'passkey', user_id: user.id }),
    put({ ...keys.passkeyLookup(`hash-${user.id}`), type: 'passkey_lookup', user_id: user.id }),
    put({ ...keys.userCertificate(user.id, content.id), type: 'certificate', verification_code: code }),
    put({ ...keys.certificate(code), type: 'certificate_public', user_id: user.id }),
    ...[today, yesterday].map((day) => put({ ...keys.activity(day, user.id), type: 'activity', user_id: user.id, day })),
  ]);
  await softDeleteUser(user.id, 'test', admin);
  const deletedAt = new Date(Date.now() - deletedDaysAgo * DAY).toISOString();
  await setUserFields(user.id, { deleted_at: deletedAt, ...indexKeys.erasureDue(user.id, deletedAt) });
  return user;
}

/** An item as an UpdateItem (the twin's operator writes need no other grant than the test's own). */
function toUpdate(entry: Record<string, unknown>) {
  const { pk, sk, ...fields } = entry as { pk: string; sk: string } & Record<string, unknown>;
  const names = Object.keys(fields);
  return {
    TableName: tableName(),
    Key: { pk, sk },
    UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
    ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#f${i}`, name])),
    ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, fields[name]])),
  };
}

/** Nothing of the account is left but its anonymised audit entries. */
async function expectErased(user: UserRecord) {
  const code = `CODE-${user.id.toUpperCase()}`;
  for (const key of [
    keys.user(user.id),
    keys.session(user.id, 's-1'),
    keys.passkey(user.id, `hash-${user.id}`),
    keys.passkeyLookup(`hash-${user.id}`),
    keys.userCertificate(user.id, content.id),
    keys.certificate(code),
    keys.activity(dayOf(new Date()), user.id),
    keys.activity(dayOf(new Date(Date.now() - DAY)), user.id),
    keys.email(user.email),
  ])
    expect(await item(key), `${key.pk} ${key.sk}`).toBeUndefined();
  expect(await item(keys.purgeJob(user.id))).toMatchObject({ status: 'done' });
}

beforeAll(() => registerLocalWorkers());
afterAll(() => unregisterLocalConsumers());

describe('the hourly reminder schedule', () => {
  it("queues the slices of the hour's partitions that hold learners, which the reminder workers send", async () => {
    // a learner whose local morning is this UTC hour
    const daisy = await enrolledLearner('Daisy', zoneWhoseMorningIs(new Date().getUTCHours()));
    const held = await partitionsWithLearners(new Date());
    expect(held).toContain(indexPartition.remindersDue(reminderShard(daisy.id), new Date().getUTCHours()));
    // the hour's other partitions are empty in this table: no message for them
    expect(held.length).toBeLessThan(reminderPartitions(new Date()).length);
    const summary = await runAs('reminders', () => reminderScheduleFunction());
    expect(summary.slices).toBe(held.length * SLICE_PREFIXES.length);
    await drainLocalQueues();
    expect(await reminders(daisy)).toHaveLength(1);
    // a slice with learners is checkpointed done; an empty one writes nothing (no checkpoint to remember)
    const mine = reminderMessages(new Date(), new Date().getUTCHours(), held).find(
      (message) =>
        message.partition === indexPartition.remindersDue(reminderShard(daisy.id), new Date().getUTCHours()) &&
        daisy.id.startsWith(message.prefix!),
    )!;
    expect((await item(sliceCheckpointKey(mine)))?.done).toBe(true);
    // a slice of a partition nobody is in (weekly learners of another hour and weekday)
    const empty = {
      ...mine,
      partition: indexPartition.remindersDue(0, (new Date().getUTCHours() + 12) % 24, (new Date().getUTCDay() + 3) % 7),
      prefix: 'f',
    };
    expect(await runAs('reminderWorker', () => processReminderSlice(empty))).toMatchObject({ finished: true, considered: 0 });
    expect(await item(sliceCheckpointKey(empty))).toBeUndefined();
  });

  it('reruns the hour it is given, not the current one, and refuses an hour it cannot run without queueing anything', async () => {
    const previous = new Date(Date.now() - 3600 * 1000);
    // a learner whose local morning was the previous UTC hour: the current hour's run does not remind her
    const petra = await enrolledLearner('Petra', zoneWhoseMorningIs(previous.getUTCHours()));
    await runAs('reminders', () => reminderScheduleFunction({}));
    await drainLocalQueues();
    expect(await reminders(petra)).toHaveLength(0);

    for (const [event, error] of [
      [{ hour: '2026-13-01T07' }, 'invalid_hour'],
      [{ hour: hourName(new Date(Date.now() + 3600 * 1000)) }, 'hour_in_future'],
      [{ hour: hourName(new Date(Date.now() - 2 * DAY)) }, 'hour_too_old'],
      [{ when: hourName(previous) }, 'invalid_event'],
    ] as const) {
      expect(await runAs('reminders', () => reminderScheduleFunction(event)), JSON.stringify(event)).toMatchObject({ error });
      await drainLocalQueues();
      expect(await reminders(petra)).toHaveLength(0);
    }

    const held = await partitionsWithLearners(previous, previous.getUTCHours());
    const rerun = await runAs('reminders', () => reminderScheduleFunction({ hour: hourName(previous) }));
    expect(rerun).toMatchObject({ hour: hourName(previous), slices: held.length * SLICE_PREFIXES.length });
    await drainLocalQueues();
    expect(await reminders(petra)).toHaveLength(1);
    // a second rerun of the hour reminds nobody twice
    await runAs('reminders', () => reminderScheduleFunction({ hour: hourName(previous) }));
    await drainLocalQueues();
    expect(await reminders(petra)).toHaveLength(1);
  });

  it('has a worker near its timeout queue its own continuation, which finishes the slice', async () => {
    const wendy = await enrolledLearner('Wendy');
    const day = new Date(Date.now() + 2 * DAY);
    // Wendy's zone is UTC: her morning's run is 09:00 UTC
    const slice = reminderMessages(day, 9).find(
      (message) => message.partition === indexPartition.remindersDue(reminderShard(wendy.id), 9) && wendy.id.startsWith(message.prefix!),
    )!;
    const event = { Records: [{ messageId: 'm-1', body: JSON.stringify(slice) }] } as SQSEvent;
    const result = await runAs('reminderWorker', () => reminderWorkerFunction(event, lambdaContext(0)));
    expect(result.batchItemFailures).toEqual([]);
    await drainLocalQueues();
    expect((await item(sliceCheckpointKey(slice)))?.done).toBe(true);
    expect(await reminders(wendy)).toHaveLength(1);
  });
});

describe('the reminder workers keep the index honest', () => {
  it('take out learners who turned reminders off, move those who changed frequency, derive an old enrollment’s module, and release a failed send’s claim', async () => {
    const off = await enrolledLearner('Olive');
    const weekly = await enrolledLearner('Walter');
    const legacy = await enrolledLearner('Lena');
    const failing = await enrolledLearner('Fred');
    const [indexPk] = indexAttributes('remindersDue');
    // what a settings write that failed halfway would leave: the account changed, the index not
    await setUserFields(off.id, { reminder_frequency: 'off' });
    await setUserFields(weekly.id, { reminder_frequency: 'weekly' });
    // an enrollment written before it carried its open module
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key: keys.enrollment(legacy.id, content.id), UpdateExpression: 'REMOVE open_module_id' }),
    );
    const ses = mockClient(SESv2Client);
    ses.on(GetAccountCommand).resolves({ SendQuota: { MaxSendRate: 14, Max24HourSend: 50_000, SentLast24Hours: 0 } });
    ses.on(SendEmailCommand).resolves({ MessageId: 'sent' });
    ses
      .on(SendEmailCommand, { Destination: { ToAddresses: [failing.email] } })
      .rejects(Object.assign(new Error('Email address is not verified.'), { name: 'MessageRejected' }));
    const day = new Date(Date.now() + 3 * DAY);
    try {
      const summary = await runAs('reminderWorker', () => runReminders({ now: day, hour: UTC_LEARNERS_HOUR, sleep: noSleep }));
      expect(summary.failed).toBeGreaterThanOrEqual(1);
    } finally {
      ses.restore();
    }
    expect((await item(keys.enrollment(off.id, content.id)))?.[indexPk]).toBeUndefined();
    expect(String((await item(keys.enrollment(weekly.id, content.id)))?.[indexPk])).toMatch(/^REMIND#weekly#/);
    expect(await item(keys.reminderSent(legacy.id, dayOf(day)))).toBeDefined();
    expect(await item(keys.reminderSent(failing.id, dayOf(day)))).toBeUndefined();
  });
});

describe('a hard delete that does not fit its request', () => {
  it('runs entirely in the purge worker, which queues its own continuation when out of time', async () => {
    const user = await accountWithEverything('Petra', RETENTION_DAYS + 1);
    unregisterLocalConsumers(); // the admin's message waits in the queue
    const started = await runAs('admin', () => hardDeleteUser(user.id, user.email, admin, new Date(), { timeLeftMs: () => 0 }));
    expect(started).toMatchObject({ deleted: false, status: 'purging' });
    expect(await item(keys.user(user.id))).toMatchObject({ status: 'purging' });
    await registerLocalWorkers();
    // a worker out of time checkpoints and queues the rest; the next worker finishes from the checkpoint
    await runAs('purge', () => runPurgeMessage({ user_id: user.id }, () => 0));
    await drainLocalQueues();
    await expectErased(user);
  });
});

describe('the daily erasure', () => {
  it('queues an account with every kind of data once its retention is over; the purge worker erases it', async () => {
    const user = await accountWithEverything('Edith', RETENTION_DAYS + 2);
    const summary = await runAs('erasure', () => runErasure({ now: new Date() }));
    expect(summary).toMatchObject({ queued: 1, failed: 0 });
    await drainLocalQueues();
    await expectErased(user);
  });
});
