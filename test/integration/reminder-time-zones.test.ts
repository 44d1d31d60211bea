import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { setClockSource } from '../../functions/lib/clock';
import { db, tableName } from '../../functions/lib/db';
import { indexAttributes, keys } from '../../functions/lib/table';
import { getUserByEmail } from '../../functions/lib/users';
import type { UserRecord } from '../../functions/lib/user-record';
import { program } from '../../functions/program/content';
import { runReminders } from '../../functions/program/reminders';
import { runAs } from '../../infra/local/iam/twin';
import { emailsTo, useApi, type ApiClient } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';
import { doneBody } from './program-helpers';

/**
 * Reminders in the learner's own morning (docs/product.md "Reminders"): the zone comes from the
 * browser at registration or from Settings, and each hourly run mails the learners whose local
 * 09:00 falls in its UTC hour; weekly learners on their local enrollment weekday.
 */
const api = useApi();
const content = program();
const noSleep = async () => {};
const [indexPk] = indexAttributes('remindersDue');
const reminders = async (user: UserRecord) => (await emailsTo(user.email)).filter((email) => /^Next up: /.test(email.subject));
const enrollment = async (userId: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.enrollment(userId, content.id), ConsistentRead: true }))).Item;
/** One hourly run, as the schedule queues it for that UTC hour, run in this process. */
const hourlyRun = (iso: string) => {
  const now = new Date(iso);
  return runAs('reminderWorker', () => runReminders({ now, hour: now.getUTCHours(), clock: now, sleep: noSleep }));
};

async function learner(name: string): Promise<{ user: UserRecord; client: ApiClient }> {
  const user = await createTestUser({ first_name: name });
  const client = api.client();
  await signIn(client, user);
  return { user, client };
}

describe('the reminder time zone', () => {
  it('is UTC until set, is saved alone or with the frequency, and an unknown zone changes nothing', async () => {
    const { user, client } = await learner('Zed');
    expect((await client.post('/api/enroll')).status).toBe(200);
    expect((await client.get('/api/settings/notifications')).body).toEqual({
      reminder_frequency: 'daily',
      time_zone: 'UTC',
      reminders_paused: false,
    });
    const before = (await enrollment(user.id))?.[indexPk] as string | undefined;
    expect(before).toMatch(/^REMIND#daily#09#/);

    for (const body of [
      { time_zone: 'Mars/Olympus_Mons' },
      { time_zone: '+09:00' },
      { time_zone: 9 },
      { reminder_frequency: 'weekly', time_zone: 'Nowhere' },
    ]) {
      const refused = await client.post('/api/settings/notifications', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body).toEqual({ error: 'invalid_time_zone' });
    }
    const badFrequency = await client.post('/api/settings/notifications', { reminder_frequency: 'hourly', time_zone: 'Asia/Tokyo' });
    expect(badFrequency.body).toEqual({ error: 'invalid_reminder_frequency' });
    expect((await client.get('/api/settings/notifications')).body).toEqual({
      reminder_frequency: 'daily',
      time_zone: 'UTC',
      reminders_paused: false,
    });
    expect((await enrollment(user.id))?.[indexPk]).toBe(before);

    // any case in, the zone as Intl spells it out; the index entry follows to Tokyo's 09:00 (00:00 UTC)
    const tokyo = await client.post('/api/settings/notifications', { time_zone: 'asia/tokyo' });
    expect(tokyo.body).toEqual({ reminder_frequency: 'daily', time_zone: 'Asia/Tokyo', reminders_paused: false });
    expect((await enrollment(user.id))?.[indexPk]).toMatch(/^REMIND#daily#00#/);
    const both = await client.post('/api/settings/notifications', { reminder_frequency: 'weekly', time_zone: 'America/Los_Angeles' });
    expect(both.body).toEqual({ reminder_frequency: 'weekly', time_zone: 'America/Los_Angeles', reminders_paused: false });
    expect((await client.get('/api/settings/notifications')).body).toEqual(both.body);
    expect((await enrollment(user.id))?.[indexPk]).toMatch(/^REMIND#weekly#\d#(16|17)#/);
  });

  it('comes from the browser at registration', async () => {
    const client = api.client();
    const form = (email: string, time_zone: unknown) => ({
      first_name: 'Kenji',
      last_name: 'Sato',
      email,
      password: 'a long enough passphrase 77',
      passwordConfirm: 'a long enough passphrase 77',
      time_zone,
    });
    const refusedEmail = `zone-${randomUUID().slice(0, 8)}@example.com`;
    const refused = await client.post('/api/auth/register', form(refusedEmail, 'Atlantis/Capital'));
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'invalid_time_zone' });
    expect(await getUserByEmail(refusedEmail)).toBeUndefined();

    const email = `zone-${randomUUID().slice(0, 8)}@example.com`;
    expect((await client.post('/api/auth/register', form(email, 'Asia/Tokyo'))).status).toBe(201);
    expect((await getUserByEmail(email))?.time_zone).toBe('Asia/Tokyo');
  });
});

describe('the hourly reminder runs', () => {
  it('mail a learner in Tokyo and one in Los Angeles each at 09:00 their time, weekly ones on their local weekday', async () => {
    const tokyo = await learner('Tokyo');
    const weeklyTokyo = await learner('Mondays');
    const losAngeles = await learner('Angela');
    for (const { client } of [tokyo, weeklyTokyo, losAngeles]) expect((await client.post('/api/enroll')).status).toBe(200);
    // Enrolled on Monday 2031-01-06 at 08:30 in Tokyo, which is still Sunday in UTC.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.enrollment(weeklyTokyo.user.id, content.id),
        UpdateExpression: 'SET enrolled_at = :at',
        ExpressionAttributeValues: { ':at': '2031-01-05T23:30:00.000Z' },
      }),
    );
    expect((await tokyo.client.post('/api/settings/notifications', { time_zone: 'Asia/Tokyo' })).status).toBe(200);
    expect(
      (await weeklyTokyo.client.post('/api/settings/notifications', { time_zone: 'Asia/Tokyo', reminder_frequency: 'weekly' })).status,
    ).toBe(200);
    expect((await losAngeles.client.post('/api/settings/notifications', { time_zone: 'America/Los_Angeles' })).status).toBe(200);
    const mailed = async () => ({
      tokyo: (await reminders(tokyo.user)).length,
      weeklyTokyo: (await reminders(weeklyTokyo.user)).length,
      losAngeles: (await reminders(losAngeles.user)).length,
    });

    // Sunday 23:00 UTC: 08:00 Monday in Tokyo, 15:00 Sunday in Los Angeles: nobody's morning yet
    await hourlyRun('2031-01-05T23:00:00Z');
    expect(await mailed()).toEqual({ tokyo: 0, weeklyTokyo: 0, losAngeles: 0 });
    // Monday 00:00 UTC: 09:00 Monday in Tokyo (the weekly learner's local weekday)
    await hourlyRun('2031-01-06T00:00:00Z');
    expect(await mailed()).toEqual({ tokyo: 1, weeklyTokyo: 1, losAngeles: 0 });
    // 16:00 UTC is 08:00 in Los Angeles (PST), 17:00 UTC its 09:00
    await hourlyRun('2031-01-06T16:00:00Z');
    expect(await mailed()).toEqual({ tokyo: 1, weeklyTokyo: 1, losAngeles: 0 });
    await hourlyRun('2031-01-06T17:00:00Z');
    expect(await mailed()).toEqual({ tokyo: 1, weeklyTokyo: 1, losAngeles: 1 });
    // Tuesday 00:00 UTC: Tokyo's daily learner again, the weekly one not before next Monday
    await hourlyRun('2031-01-07T00:00:00Z');
    expect(await mailed()).toEqual({ tokyo: 2, weeklyTokyo: 1, losAngeles: 1 });
  });
});

describe('daylight saving time', () => {
  afterEach(() => setClockSource());
  const at = (iso: string) => setClockSource(() => Date.parse(iso));

  it('a module finished after the new hour has run keeps the learner in the hour still to come, so the morning is mailed', async () => {
    // New York, winter (UTC-5): 09:00 is the 14:00 UTC run. Daylight saving time begins on
    // Sunday 2031-03-09 (UTC-4): 09:00 is now the 13:00 UTC run.
    at('2031-03-08T12:00:00Z');
    const { user, client } = await learner('Dawn');
    expect((await client.post('/api/enroll')).status).toBe(200);
    expect((await client.post('/api/settings/notifications', { time_zone: 'America/New_York' })).status).toBe(200);
    expect((await enrollment(user.id))?.[indexPk]).toMatch(/^REMIND#daily#14#/);

    // 13:30 UTC on the first summer day: the 13:00 run is over (the entry was not in its hour);
    // the learner finishes their first module, which rewrites the enrollment.
    at('2031-03-09T13:30:00Z');
    await signIn(client, user);
    const module = content.modules[0];
    for (const task of module.tasks)
      expect((await client.put(`/api/modules/${module.slug}/tasks/${task.task_id}`, doneBody(task as never))).status).toBe(200);
    const rewritten = await enrollment(user.id);
    expect(rewritten).toMatchObject({ completed_count: 1, updated_at: '2031-03-09T13:30:00.000Z' });
    expect(rewritten?.[indexPk]).toMatch(/^REMIND#daily#14#/);

    // the 14:00 run finds them, mails this morning's reminder (10:00 their time) and moves the entry to 13:00
    await hourlyRun('2031-03-09T14:00:00Z');
    expect(await reminders(user)).toHaveLength(1);
    expect((await enrollment(user.id))?.[indexPk]).toMatch(/^REMIND#daily#13#/);
  });
});
