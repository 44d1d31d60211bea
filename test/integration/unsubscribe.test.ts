import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../functions/lib/db';
import { signUnsubscribeToken } from '../../functions/lib/unsubscribe-token';
import { keys } from '../../functions/lib/table';
import type { UserRecord } from '../../functions/lib/user-record';
import { program } from '../../functions/program/content';
import { runReminders } from '../../functions/program/reminders';
import { emailsTo, useApi, type ApiClient } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';
import { auditItemsOf } from './program-helpers';
import { runAs } from '../../infra/local/iam/twin';
import { UTC_LEARNERS_HOUR } from '../helpers/due-learners';

// The jobs under test run as their own Lambda function's IAM role, as in the cloud (infra/local/iam/twin.ts).
const reminderWorkers = (...args: Parameters<typeof runReminders>) => runAs('reminderWorker', () => runReminders(...args));

/** One-click unsubscribe (docs/product.md#unsubscribe) against DynamoDB Local and the local SES. */
const api = useApi();
const content = program();
const DAY = 24 * 3600 * 1000;
const noSleep = async () => {};
const PATH = '/api/notifications/unsubscribe';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const ONE_CLICK = 'List-Unsubscribe=One-Click';

let learner: UserRecord;
let client: ApiClient;
let unsubscribeUrl: string;

const enrollment = async (userId: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.enrollment(userId, content.id), ConsistentRead: true }))).Item;
const account = async (userId: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(userId), ConsistentRead: true }))).Item as UserRecord;
async function auditActions(userId: string): Promise<Array<Record<string, unknown>>> {
  return (await auditItemsOf(userId)).filter((entry) => entry.action === 'notifications.unsubscribe');
}
/** A request as a mail provider sends it: no cookie, no Origin. */
const providerPost = (path: string, body: string, headers: Record<string, string> = FORM) =>
  fetch(`${api.baseUrl}${path}`, { method: 'POST', headers, body });
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

beforeAll(async () => {
  learner = await createTestUser({ first_name: 'Una' });
  client = api.client();
  await signIn(client, learner);
  expect((await client.post('/api/enroll')).status).toBe(200);
  const summary = await reminderWorkers({ now: new Date(Date.now() + DAY), hour: UTC_LEARNERS_HOUR, sleep: noSleep });
  expect(summary.sent).toBe(1);
  const [email] = (await emailsTo(learner.email)).filter((e) => /^Next up: /.test(e.subject));
  const header = email.headers.find((h) => h.name === 'List-Unsubscribe')!.value;
  unsubscribeUrl = /^<(.+)>$/.exec(header)![1];
}, 60_000);

describe('the reminder email', () => {
  it('carries List-Unsubscribe, List-Unsubscribe-Post and a visible "Stop these reminders" link', async () => {
    const [email] = (await emailsTo(learner.email)).filter((e) => /^Next up: /.test(e.subject));
    expect(email.headers).toContainEqual({ name: 'List-Unsubscribe-Post', value: ONE_CLICK });
    expect(unsubscribeUrl).toMatch(/^http:\/\/localhost:3000\/api\/notifications\/unsubscribe\?token=[\w.-]+$/);
    expect(email.html).toContain(`href="${unsubscribeUrl}"`);
    expect(email.html).toContain('>Stop these reminders</a>');
    expect(email.text).toContain(`Stop these reminders: ${unsubscribeUrl}`);
  });
});

describe(`GET ${PATH}`, () => {
  it('changes nothing and sends the browser to the confirmation page', async () => {
    const response = await fetch(`${api.baseUrl}${pathOf(unsubscribeUrl)}`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    const token = new URL(unsubscribeUrl).searchParams.get('token')!;
    expect(response.headers.get('location')).toBe(`http://localhost:3000/unsubscribe?token=${encodeURIComponent(token)}`);
    expect((await account(learner.id)).reminder_frequency).toBe('daily');
    expect((await enrollment(learner.id))?.gsi3pk).toMatch(/^REMIND#daily#/);
    expect(await auditActions(learner.id)).toEqual([]);
  });

  it('answers 400 for a missing or tampered token', async () => {
    expect((await client.get(PATH)).body).toEqual({ error: 'missing_token' });
    // one character of the signature changed, not the last: base64url's last character carries
    // bits a decoder ignores, so changing it can leave the signature as it was
    const tampered = pathOf(unsubscribeUrl).replace(
      /\.([A-Za-z0-9_-])([A-Za-z0-9_-]+)$/,
      (_all, first: string, rest: string) => `.${first === 'A' ? 'B' : 'A'}${rest}`,
    );
    const response = await fetch(`${api.baseUrl}${tampered}`, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_token' });
  });
});

describe(`POST ${PATH}`, () => {
  it('refuses a missing, tampered, foreign-key or other-kind token with 400 and changes nothing', async () => {
    const token = new URL(unsubscribeUrl).searchParams.get('token')!;
    const [header, payload] = token.split('.');
    // the payload swapped for another account's: the signature no longer matches
    const otherPayload = Buffer.from(JSON.stringify({ sub: 'someone-else', iat: 1 })).toString('base64url');
    const foreignKey = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'unsubscribe+jwt' })
      .setSubject(learner.id)
      .sign(new TextEncoder().encode('x'.repeat(40)));
    // a token signed with the right key but of another kind (typ) is refused too
    const cases: Array<[string, string]> = [
      [PATH, 'missing_token'],
      [`${PATH}?token=`, 'missing_token'],
      [`${PATH}?token=not-a-token`, 'invalid_token'],
      [`${PATH}?token=${header}.${otherPayload}.${token.split('.')[2]}`, 'invalid_token'],
      [`${PATH}?token=${foreignKey}`, 'invalid_token'],
      [`${PATH}?token=${payload}`, 'invalid_token'],
    ];
    for (const [path, error] of cases) {
      const response = await providerPost(path, ONE_CLICK);
      expect(response.status, path).toBe(400);
      expect(await response.json(), path).toEqual({ error });
    }
    expect((await account(learner.id)).reminder_frequency).toBe('daily');
  });

  it('refuses a body other than List-Unsubscribe=One-Click (400), a non-form body (415) and a foreign Origin (403)', async () => {
    const path = pathOf(unsubscribeUrl);
    let response = await providerPost(path, 'List-Unsubscribe=Please');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_unsubscribe_body' });
    response = await providerPost(path, ONE_CLICK, { 'content-type': 'text/plain' });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ error: 'unsupported_media_type' });
    response = await providerPost(path, ONE_CLICK, { ...FORM, origin: 'https://evil.example' });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: 'bad_origin' });
    expect((await account(learner.id)).reminder_frequency).toBe('daily');
  });

  it('turns reminders off in one click, without a session or Origin, audited; a second click changes nothing', async () => {
    const response = await providerPost(pathOf(unsubscribeUrl), ONE_CLICK);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ reminder_frequency: 'off' });
    expect((await account(learner.id)).reminder_frequency).toBe('off');
    const item = await enrollment(learner.id);
    expect(item?.gsi3pk).toBeUndefined();
    const [entry, ...more] = await auditActions(learner.id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      actor_user_id: learner.id,
      entity_id: learner.id,
      old_values: { reminder_frequency: 'daily' },
      new_values: { reminder_frequency: 'off', via: 'unsubscribe_link' },
    });

    const again = await providerPost(pathOf(unsubscribeUrl), ONE_CLICK);
    expect(again.status).toBe(200);
    expect(await auditActions(learner.id)).toHaveLength(1);
  });

  it('shows Off in Settings, and the reminder job sends nothing more', async () => {
    expect((await client.get('/api/settings/notifications')).body).toEqual({
      reminder_frequency: 'off',
      time_zone: 'UTC',
      reminders_paused: false,
    });
    const before = (await emailsTo(learner.email)).length;
    const summary = await reminderWorkers({ now: new Date(Date.now() + 2 * DAY), hour: UTC_LEARNERS_HOUR, sleep: noSleep });
    expect(summary).toEqual({ considered: 0, sent: 0, skipped: 0, failed: 0 });
    expect(await emailsTo(learner.email)).toHaveLength(before);
  });

  it('the SPA sends the same body as JSON from its own origin', async () => {
    const other = await createTestUser({ first_name: 'Jay' });
    const path = `${PATH}?token=${await signUnsubscribeToken(other.id)}`;
    const response = await api.client().post(path, { 'List-Unsubscribe': 'One-Click' }, { origin: 'http://localhost:3000' });
    expect(response.status).toBe(200);
    expect((await account(other.id)).reminder_frequency).toBe('off');
  });

  it('answers 404 for a valid token of an account that no longer exists', async () => {
    const response = await providerPost(`${PATH}?token=${await signUnsubscribeToken('gone-account')}`, ONE_CLICK);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'not_found' });
  });
});

describe('Settings: Off and back', () => {
  it('keeps off through the existing calls; daily puts the learner back in the reminder index', async () => {
    const other = await createTestUser({ first_name: 'Kim' });
    const browser = api.client();
    await signIn(browser, other);
    expect((await browser.post('/api/enroll')).status).toBe(200);
    expect((await browser.post('/api/settings/notifications', { reminder_frequency: 'off' })).status).toBe(200);
    expect((await browser.get('/api/settings/notifications')).body).toEqual({
      reminder_frequency: 'off',
      time_zone: 'UTC',
      reminders_paused: false,
    });
    expect((await enrollment(other.id))?.gsi3pk).toBeUndefined();
    expect((await browser.post('/api/settings/notifications', { reminder_frequency: 'weekly' })).status).toBe(200);
    expect((await enrollment(other.id))?.gsi3pk).toMatch(/^REMIND#weekly#/);
    const bad = await browser.post('/api/settings/notifications', { reminder_frequency: 'never' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'invalid_reminder_frequency' });
  });
});

describe('the unsubscribe page: GET/POST /api/notifications/subscription', () => {
  const SUBSCRIPTION = '/api/notifications/subscription';

  it('reads the address and frequency by the token, changing nothing; a bad token or a gone account is refused', async () => {
    const other = await createTestUser({ first_name: 'Lea' });
    const token = await signUnsubscribeToken(other.id);
    const response = await api.client().get(`${SUBSCRIPTION}?token=${token}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ email: other.email, reminder_frequency: 'daily', reminders_paused: false });
    expect(await auditActions(other.id)).toEqual([]);
    expect((await api.client().get(SUBSCRIPTION)).body).toEqual({ error: 'missing_token' });
    expect((await api.client().get(`${SUBSCRIPTION}?token=not-a-token`)).body).toEqual({ error: 'invalid_token' });
    const gone = await api.client().get(`${SUBSCRIPTION}?token=${await signUnsubscribeToken('gone-account')}`);
    expect(gone.status).toBe(404);
  });

  it('"weekly instead" and back on: moves the reminder index entry, audited as the account\'s own change via the link', async () => {
    const other = await createTestUser({ first_name: 'Max' });
    const browser = api.client();
    await signIn(browser, other);
    expect((await browser.post('/api/enroll')).status).toBe(200);
    const path = `${SUBSCRIPTION}?token=${await signUnsubscribeToken(other.id)}`;
    const page = api.client(); // no session: the token is the only authority

    const weekly = await page.post(path, { reminder_frequency: 'weekly' }, { origin: 'http://localhost:3000' });
    expect(weekly.status).toBe(200);
    expect(weekly.body).toEqual({ reminder_frequency: 'weekly' });
    expect((await account(other.id)).reminder_frequency).toBe('weekly');
    expect((await enrollment(other.id))?.gsi3pk).toMatch(/^REMIND#weekly#/);

    expect((await providerPost(`${PATH}?token=${await signUnsubscribeToken(other.id)}`, ONE_CLICK)).status).toBe(200);
    expect((await enrollment(other.id))?.gsi3pk).toBeUndefined();
    expect((await page.post(path, { reminder_frequency: 'daily' })).body).toEqual({ reminder_frequency: 'daily' });
    expect((await enrollment(other.id))?.gsi3pk).toMatch(/^REMIND#daily#/);
    // the same frequency again writes nothing
    expect((await page.post(path, { reminder_frequency: 'daily' })).status).toBe(200);

    const entries = (await auditItemsOf(other.id)).filter((entry) => String(entry.action).startsWith('notifications.'));
    expect(entries.map((entry) => [entry.action, (entry.new_values as Record<string, unknown>).reminder_frequency])).toEqual([
      ['notifications.link_frequency', 'weekly'],
      ['notifications.unsubscribe', 'off'],
      ['notifications.link_frequency', 'daily'],
    ]);
    expect(
      entries.every(
        (entry) => entry.actor_user_id === other.id && (entry.new_values as Record<string, unknown>).via === 'unsubscribe_link',
      ),
    ).toBe(true);
  });

  it('refuses an unknown frequency (400), a form body (415) and a foreign Origin (403)', async () => {
    const other = await createTestUser({ first_name: 'Ned' });
    const path = `${SUBSCRIPTION}?token=${await signUnsubscribeToken(other.id)}`;
    const bad = await api.client().post(path, { reminder_frequency: 'hourly' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'invalid_reminder_frequency' });
    expect((await providerPost(path, 'reminder_frequency=off')).status).toBe(415);
    const foreign = await providerPost(path, JSON.stringify({ reminder_frequency: 'off' }), {
      'content-type': 'application/json',
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
    expect((await account(other.id)).reminder_frequency).toBe('daily');
  });
});
