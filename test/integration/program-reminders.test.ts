import { GetAccountCommand, SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { capacityMeter, db, tableName } from '../../functions/lib/db';
import { indexPartition, keys } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { program } from '../../functions/program/content';
import { reminderShard } from '../../functions/program/reminder-index';
import {
  localRunMessages,
  processReminderSlice,
  reminderMessages,
  runReminders,
  sliceCheckpointKey,
} from '../../functions/program/reminders';
import { emailsTo, useApi } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';
import { finishProgram, setUserFields } from './program-helpers';
import { runAs } from '../../infra/local/iam/twin';
import { UTC_LEARNERS_HOUR } from '../helpers/due-learners';

// The jobs under test run as their own Lambda function's IAM role, as in the cloud (infra/local/iam/twin.ts).
const reminderWorkers = (...args: Parameters<typeof runReminders>) => runAs('reminderWorker', () => runReminders(...args));
const reminderWorker = (...args: Parameters<typeof processReminderSlice>) => runAs('reminderWorker', () => processReminderSlice(...args));

const api = useApi();
const content = program();
const DAY = 24 * 3600 * 1000;
const noSleep = async () => {};

/** One learner per case the job must tell apart. */
const people: Record<string, UserRecord> = {};
let enrolledAt: Date;

async function learner(name: string, options: { verified?: boolean; enroll?: boolean; weekly?: boolean } = {}) {
  const user = await createTestUser({ first_name: name, verified: options.verified ?? true });
  const client = api.client();
  await signIn(client, user);
  if (options.enroll !== false) expect((await client.post('/api/enroll')).status).toBe(200);
  if (options.weekly) expect((await client.post('/api/settings/notifications', { reminder_frequency: 'weekly' })).status).toBe(200);
  people[name] = user;
  return { user, client };
}

const reminders = async (name: string) => (await emailsTo(people[name].email)).filter((email) => /^Next up: /.test(email.subject));

beforeAll(async () => {
  enrolledAt = new Date();
  await learner('Daisy');
  await learner('Wendy', { weekly: true });
  await learner('Uma', { verified: false });
  await learner('Larry');
  await learner('Dora');
  await learner('Nora', { enroll: false });
  const { client: finisher } = await learner('Fiona');
  await finishProgram(finisher);
  // What admin actions do to an account after enrollment:
  await setUserFields(people.Larry.id, { status: 'locked', is_locked: true });
  await setUserFields(people.Dora.id, { status: 'deleted', deleted_at: new Date().toISOString() });
}, 120_000);

describe('the reminder job', () => {
  it('emails only verified, active, enrolled learners with modules left who are due today', async () => {
    const tomorrow = new Date(enrolledAt.getTime() + DAY);
    const summary = await reminderWorkers({ now: tomorrow, hour: UTC_LEARNERS_HOUR, sleep: noSleep });
    // Daisy, Uma, Larry and Dora are in the daily partitions. Wendy's weekly partition (her
    // enrollment weekday) is not read on another weekday; Fiona left the index on completion;
    // Nora never enrolled.
    expect(summary).toEqual({ considered: 4, sent: 1, skipped: 3, failed: 0 });

    const [email] = await reminders('Daisy');
    expect(email).toBeDefined();
    const open = content.modules[0];
    expect(email.subject).toBe(`Next up: ${open.title}`);
    expect(email.text).toContain('Hi Daisy,');
    expect(email.text).toContain("You're 0% of the way through the 4-Week Career Program.");
    expect(email.text).toContain(`Week 1 • ${open.title}`);
    expect(email.text).toContain(`http://localhost:3000/modules/${open.slug}`);
    expect(email.text).toContain('http://localhost:3000/settings');
    expect(email.text).toContain('every day');
    expect(email.html).toContain(`href="http://localhost:3000/modules/${open.slug}"`);
    expect(email.html).toContain('href="http://localhost:3000/settings"');

    for (const name of ['Wendy', 'Uma', 'Larry', 'Dora', 'Nora', 'Fiona']) expect(await reminders(name), name).toEqual([]);
  });

  it('sends nothing twice when rerun the same day', async () => {
    const tomorrow = new Date(enrolledAt.getTime() + DAY);
    // every slice's checkpoint says done: a rerun reads nothing
    const summary = await reminderWorkers({ now: tomorrow, hour: UTC_LEARNERS_HOUR, sleep: noSleep });
    expect(summary).toEqual({ considered: 0, sent: 0, skipped: 0, failed: 0 });
    // a redelivery that starts a slice over (its checkpoint lost): the once-a-day marker holds
    for (const message of localRunMessages(tomorrow, UTC_LEARNERS_HOUR))
      await db().send(new DeleteCommand({ TableName: tableName(), Key: sliceCheckpointKey(message) }));
    const again = await reminderWorkers({ now: tomorrow, hour: UTC_LEARNERS_HOUR, sleep: noSleep });
    expect(again).toEqual({ considered: 4, sent: 0, skipped: 4, failed: 0 });
    expect(await reminders('Daisy')).toHaveLength(1);
  });

  it('resumes a slice from its checkpoint after a crash, without mailing anyone twice', async () => {
    const day = new Date(enrolledAt.getTime() + 4 * DAY);
    // Daisy's zone is UTC: her morning's run is 09:00 UTC
    const daisy = reminderMessages(day, 9).find(
      (m) => m.partition === indexPartition.remindersDue(reminderShard(people.Daisy.id), 9) && people.Daisy.id.startsWith(m.prefix!),
    )!;
    // out of time before the first page: checkpointed, not finished (the worker queues the rest)
    expect(await reminderWorker(daisy, { sleep: noSleep, timeLeftMs: () => 0 })).toMatchObject({ finished: false, considered: 0 });
    expect(await reminderWorker(daisy, { sleep: noSleep })).toMatchObject({ finished: true, sent: 1 });
    expect(await reminderWorker(daisy, { sleep: noSleep })).toMatchObject({ finished: true, considered: 0 });
    expect(await reminders('Daisy')).toHaveLength(2);
  });

  it('reminds weekly learners on their weekday, a week later, with the right wording', async () => {
    const nextWeek = new Date(enrolledAt.getTime() + 7 * DAY);
    const summary = await reminderWorkers({ now: nextWeek, hour: UTC_LEARNERS_HOUR, sleep: noSleep });
    expect(summary).toEqual({ considered: 5, sent: 2, skipped: 3, failed: 0 });
    expect(await reminders('Daisy')).toHaveLength(3);
    const weekly = await reminders('Wendy');
    expect(weekly).toHaveLength(1);
    expect(weekly[0].text).toContain('once a week');
  });

  it('reads with Query, BatchGetItem and GetItem only, never a Scan: one account read per learner', async () => {
    const send = vi.spyOn(db(), 'send');
    capacityMeter.reset();
    try {
      const now = new Date(enrolledAt.getTime() + 2 * DAY);
      await reminderWorkers({ now, hour: UTC_LEARNERS_HOUR, sleep: noSleep });
      const commands = send.mock.calls.map(([command]) => command.constructor.name);
      expect(commands).not.toContain('ScanCommand');
      const reads = commands.filter((name) => !['PutCommand', 'UpdateCommand', 'DeleteCommand'].includes(name));
      // Query (index pages), BatchGet (the page's accounts), Get (each slice's checkpoint, and
      // the published program version once in a slice with learners)
      expect(new Set(reads)).toEqual(new Set(['QueryCommand', 'BatchGetCommand', 'GetCommand']));
      const gets = send.mock.calls.filter(([command]) => command.constructor.name === 'GetCommand');
      const programReads = gets.filter(([command]) => (command.input as { Key: { sk: string } }).Key.sk === 'META').length;
      expect(gets.length - programReads).toBe(localRunMessages(now, UTC_LEARNERS_HOUR).length);
      expect(programReads).toBeGreaterThan(0);
      expect(programReads).toBeLessThanOrEqual(localRunMessages(now, UTC_LEARNERS_HOUR).length);
      expect(capacityMeter.calls).toBe(commands.length);
    } finally {
      send.mockRestore();
    }
  });

  it('retries SES throttling and still sends', async () => {
    const ses = mockClient(SESv2Client);
    try {
      ses.on(GetAccountCommand).resolves({ SendQuota: { MaxSendRate: 14, Max24HourSend: 50_000, SentLast24Hours: 0 } });
      ses
        .on(SendEmailCommand)
        .rejectsOnce(Object.assign(new Error('Maximum sending rate exceeded.'), { name: 'Throttling' }))
        .resolves({ MessageId: 'mocked' });
      const summary = await reminderWorkers({ now: new Date(enrolledAt.getTime() + 3 * DAY), hour: UTC_LEARNERS_HOUR, sleep: noSleep });
      expect(summary).toMatchObject({ sent: 1, failed: 0 });
      const calls = ses.commandCalls(SendEmailCommand);
      expect(calls).toHaveLength(2);
      expect(calls.every((call) => call.args[0].input.Destination?.ToAddresses?.[0] === people.Daisy.email)).toBe(true);
    } finally {
      ses.restore();
    }
  });

  it('keeps the completed learner out of the index', async () => {
    const enrollment = await db().send(new GetCommand({ TableName: tableName(), Key: keys.enrollment(people.Fiona.id, content.id) }));
    expect(enrollment.Item?.status).toBe('completed');
    expect(enrollment.Item?.gsi3pk).toBeUndefined();
  });
});
