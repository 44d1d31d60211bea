import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '../../functions/lib/activity';
import { db, tableName } from '../../functions/lib/db';
import { indexPartitionOf, keys } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { program } from '../../functions/program/content';
import { INACTIVE_DAYS } from '../../functions/program/reminder-pause';
import { runReminders } from '../../functions/program/reminders';
import type { EnrollmentRecord } from '../../functions/program/store';
import type { ModulePage, NotificationPreferences } from '../../shared/program-types';
import { drainActivityStream } from '../../infra/local/activity-stream';
import { runAs } from '../../infra/local/iam/twin';
import { emailsTo, useApi, type ApiClient } from '../helpers/api';
import { UTC_LEARNERS_HOUR } from '../helpers/due-learners';
import { createTestUser, signIn } from '../helpers/users';
import { doneBody, setUserFields } from './program-helpers';

/**
 * Reminders pause for learners who left (functions/program/reminder-pause.ts): after 4 weeks
 * without activity one "paused" email, then nothing, until activity, the email's link or
 * Settings resume them.
 */
const reminderWorkers = (...args: Parameters<typeof runReminders>) => runAs('reminderWorker', () => runReminders(...args));

const api = useApi();
const content = program();
const DAY = 24 * 3600 * 1000;
const noSleep = async () => {};
const PAUSED_SUBJECT = "We've paused your reminders";

type Learner = { user: UserRecord; client: ApiClient };
const people: Record<string, Learner> = {};

async function learner(name: string, lastActiveDaysAgo: number): Promise<Learner> {
  const user = await createTestUser({ first_name: name });
  const client = api.client();
  await signIn(client, user);
  expect((await client.post('/api/enroll')).status).toBe(200);
  await setUserFields(user.id, { last_active_day: dayOf(new Date(Date.now() - lastActiveDaysAgo * DAY)) });
  people[name] = { user, client };
  return people[name];
}

const mails = async (name: string) => {
  const all = await emailsTo(people[name].user.email);
  return { paused: all.filter((e) => e.subject === PAUSED_SUBJECT), reminders: all.filter((e) => /^Next up: /.test(e.subject)) };
};
const account = async (name: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(people[name].user.id), ConsistentRead: true })))
    .Item as UserRecord;
const inIndex = async (name: string) => {
  const item = (
    await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.enrollment(people[name].user.id, content.id), ConsistentRead: true }),
    )
  ).Item as EnrollmentRecord;
  return Boolean(indexPartitionOf('remindersDue', item));
};
const runOn = (daysFromNow: number) =>
  reminderWorkers({ now: new Date(Date.now() + daysFromNow * DAY), hour: UTC_LEARNERS_HOUR, sleep: noSleep });
/** The link of the paused email as a path of the local API. */
const linkOf = (text: string) => {
  const url = new URL(/Resume them with one click: (\S+)/.exec(text)![1]);
  return `${url.pathname}${url.search}`;
};

beforeAll(async () => {
  // Sam comes back with a task save, Lee with the email's link, Pat in Settings; Ada was active last week.
  await Promise.all([
    learner('Sam', INACTIVE_DAYS),
    learner('Lee', INACTIVE_DAYS + 10),
    learner('Pat', INACTIVE_DAYS + 1),
    learner('Ada', 6),
  ]);
  await runOn(1);
}, 60_000);

describe('reminders of learners 4 weeks without activity', () => {
  it('become one paused email with a resume link; active learners keep their reminder', async () => {
    for (const name of ['Sam', 'Lee', 'Pat']) {
      const { paused, reminders } = await mails(name);
      expect(reminders, name).toHaveLength(0);
      expect(paused, name).toHaveLength(1);
      expect(paused[0].text).toContain(`Hi ${name},`);
      expect(paused[0].text).toMatch(/Resume them with one click: http:\/\/localhost:3000\/api\/notifications\/unsubscribe\?token=/);
      expect((await account(name)).reminders_paused_at).toBeDefined();
      expect(await inIndex(name), name).toBe(false);
    }
    expect((await mails('Ada')).reminders).toHaveLength(1);
    expect((await mails('Ada')).paused).toHaveLength(0);
    expect(await inIndex('Ada')).toBe(true);
  });

  it('send nothing on later days, and Settings and the link say they are paused', async () => {
    await runOn(2);
    for (const name of ['Sam', 'Lee', 'Pat']) {
      const { paused, reminders } = await mails(name);
      expect([paused.length, reminders.length], name).toEqual([1, 0]);
    }
    expect((await mails('Ada')).reminders).toHaveLength(2);
    const settings = await people.Pat.client.get<NotificationPreferences>('/api/settings/notifications');
    expect(settings.body).toEqual({ reminder_frequency: 'daily', time_zone: 'UTC', reminders_paused: true });
    const link = linkOf((await mails('Lee')).paused[0].text).replace('/unsubscribe', '/subscription');
    expect((await api.client().get(link)).body).toMatchObject({ reminder_frequency: 'daily', reminders_paused: true });
  });

  it('resume after a task save, the link or Settings: reminders come again, with the frequency the learner had', async () => {
    // Sam saves a task: the activity aggregator (the table's stream) resumes the reminders
    const page = await people.Sam.client.get<ModulePage>(`/api/modules/${content.modules[0].slug}`);
    const task = page.body.module.tasks[0];
    expect((await people.Sam.client.put(`/api/modules/${content.modules[0].slug}/tasks/${task.task_id}`, doneBody(task))).status).toBe(200);
    await drainActivityStream();
    // Lee follows the paused email's link to the reminders page and presses "Resume reminders"
    const link = linkOf((await mails('Lee')).paused[0].text).replace('/unsubscribe', '/subscription');
    const resumed = await api.client().post(link, { reminder_frequency: 'daily' });
    expect(resumed.status).toBe(200);
    // Pat presses "Resume reminders" in Settings; a bad value changes nothing
    expect((await people.Pat.client.post('/api/settings/notifications', { resume: 'yes' })).body).toEqual({ error: 'invalid_resume' });
    expect((await account('Pat')).reminders_paused_at).toBeDefined();
    const settings = await people.Pat.client.post<NotificationPreferences>('/api/settings/notifications', { resume: true });
    expect(settings.body).toEqual({ reminder_frequency: 'daily', time_zone: 'UTC', reminders_paused: false });

    for (const name of ['Sam', 'Lee', 'Pat']) {
      expect((await account(name)).reminders_paused_at, name).toBeUndefined();
      expect(await inIndex(name), name).toBe(true);
    }
    await runOn(3);
    for (const name of ['Sam', 'Lee', 'Pat']) {
      const { paused, reminders } = await mails(name);
      expect([paused.length, reminders.length], name).toEqual([1, 1]);
    }
  });
});
