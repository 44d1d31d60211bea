import type { SNSEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/jobs/ses-events';
import { isEmailSuppressed } from '../../functions/lib/email-suppression';
import { metrics } from '../../functions/lib/metrics';
import type { UserRecord } from '../../functions/lib/user-record';
import { getUserById } from '../../functions/lib/users';
import { runReminders } from '../../functions/program/reminders';
import { emailsTo, latestEmail, useApi, type ApiClient } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';
import { runAs } from '../../infra/local/iam/twin';
import { UTC_LEARNERS_HOUR } from '../helpers/due-learners';
import { storedAuditEntries } from '../helpers/audit-entries';

// The jobs under test run as their own Lambda function's IAM role, as in the cloud (infra/local/iam/twin.ts).
const mailEventsFunction = (...args: Parameters<typeof handler>) => runAs('mailEvents', () => handler(...args));
const reminderWorkers = (...args: Parameters<typeof runReminders>) => runAs('reminderWorker', () => runReminders(...args));

/**
 * The SES bounce/complaint handler against DynamoDB Local, fed the record shapes SES documents
 * for event publishing to SNS ("Examples of event data that Amazon SES publishes to Amazon
 * SNS": Bounce and Complaint records with `eventType`) and for identity feedback notifications
 * (`notificationType`).
 */
const api = useApi();
const DAY = 24 * 3600 * 1000;
const people: Record<string, UserRecord> = {};
let adminClient: ApiClient;

const mail = (to: string) => ({
  timestamp: '2026-11-20T00:40:02.012Z',
  source: 'Career Program <no-reply@example.com>',
  sourceArn: 'arn:aws:ses:us-east-1:123456789012:identity/no-reply@example.com',
  sendingAccountId: '123456789012',
  messageId: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000',
  destination: [to],
  headersTruncated: false,
  commonHeaders: { from: ['Career Program <no-reply@example.com>'], to: [to], subject: 'Next up' },
  tags: { 'ses:configuration-set': ['career-program'] },
});

const hardBounce = (to: string) => ({
  eventType: 'Bounce',
  bounce: {
    bounceType: 'Permanent',
    bounceSubType: 'General',
    bouncedRecipients: [{ emailAddress: to, action: 'failed', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
    timestamp: '2026-11-20T00:41:02.669Z',
    feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000000',
    reportingMTA: 'dsn; mta.example.com',
  },
  mail: mail(to),
});

const softBounce = (to: string) => ({
  eventType: 'Bounce',
  bounce: {
    bounceType: 'Transient',
    bounceSubType: 'MailboxFull',
    bouncedRecipients: [{ emailAddress: to, action: 'failed', status: '4.2.2', diagnosticCode: 'smtp; 452 4.2.2 mailbox full' }],
    timestamp: '2026-11-20T00:41:02.669Z',
    feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000001',
    reportingMTA: 'dsn; mta.example.com',
  },
  mail: mail(to),
});

const complaint = (to: string) => ({
  eventType: 'Complaint',
  complaint: {
    feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000002',
    complaintSubType: null,
    complainedRecipients: [{ emailAddress: to }],
    timestamp: '2026-11-20T00:41:02.669Z',
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; WOW64) AppleWebKit/537.36',
    complaintFeedbackType: 'abuse',
    arrivalDate: '2026-11-20T00:41:02.669Z',
  },
  mail: mail(to),
});

/** An identity feedback notification (no configuration set): the same body under `notificationType`. */
const notificationBounce = (to: string) => {
  const { eventType: _drop, ...rest } = hardBounce(`"Someone" <${to}>`);
  return { notificationType: 'Bounce', ...rest };
};

const sns = (...messages: unknown[]): SNSEvent => ({
  Records: messages.map((message, i) => ({
    EventSource: 'aws:sns',
    EventVersion: '1.0',
    EventSubscriptionArn: 'arn:aws:sns:us-east-1:123456789012:mail-events:sub',
    Sns: {
      Type: 'Notification',
      MessageId: `m-${i}`,
      TopicArn: 'arn:aws:sns:us-east-1:123456789012:mail-events',
      Subject: null as unknown as string,
      Message: typeof message === 'string' ? message : JSON.stringify(message),
      Timestamp: '2026-11-20T00:41:03.000Z',
      SignatureVersion: '1',
      Signature: 'EXAMPLE',
      SigningCertUrl: 'https://sns.us-east-1.amazonaws.com/cert.pem',
      UnsubscribeUrl: 'https://sns.us-east-1.amazonaws.com/unsubscribe',
      MessageAttributes: {},
    },
  })),
});

const auditOf = async (userId: string) => {
  const page = { Items: await storedAuditEntries('user', userId) };
  return (page.Items ?? []).map((item) => item.action as string);
};

beforeAll(async () => {
  for (const name of ['Bob', 'Carla', 'Tim', 'Nina', 'Gus']) {
    people[name] = await createTestUser({ first_name: name });
    const client = api.client();
    await signIn(client, people[name]);
    expect((await client.post('/api/enroll')).status).toBe(200);
  }
  const admin = await createTestUser({ role: 'admin', email: `admin-${Date.now()}@example.com` });
  adminClient = api.client();
  await signIn(adminClient, admin);
}, 120_000);

describe('SES bounce and complaint events', () => {
  it('marks hard bounces and complaints, ignores transient bounces, unknown addresses and junk', async () => {
    const addMetric = vi.spyOn(metrics, 'addMetric');
    const summary = await mailEventsFunction(
      sns(
        hardBounce(people.Bob.email),
        complaint(people.Carla.email),
        softBounce(people.Tim.email),
        notificationBounce(people.Gus.email.toUpperCase()),
        hardBounce('nobody-here@example.com'),
        'not json',
        { eventType: 'Delivery', mail: mail(people.Nina.email), delivery: { recipients: [people.Nina.email] } },
      ),
    );
    expect(summary).toEqual({ bounced: 3, complained: 1, marked: 3, ignored: 3 });
    expect((await getUserById(people.Bob.id))?.email_suppressed).toBe('bounce');
    expect((await getUserById(people.Carla.id))?.email_suppressed).toBe('complaint');
    expect((await getUserById(people.Gus.id))?.email_suppressed).toBe('bounce');
    expect((await getUserById(people.Tim.id))?.email_suppressed).toBeUndefined();
    expect((await getUserById(people.Nina.id))?.email_suppressed).toBeUndefined();
    expect(await auditOf(people.Bob.id)).toContain('user.email_bounced');
    expect(await auditOf(people.Carla.id)).toContain('user.email_complained');
    const counted = addMetric.mock.calls.map(([name]) => name);
    expect(counted.filter((name) => name === 'EmailsBounced')).toHaveLength(3);
    expect(counted.filter((name) => name === 'EmailsComplained')).toHaveLength(1);
    addMetric.mockRestore();
  });

  it('is idempotent, and a later bounce never downgrades a complaint', async () => {
    const summary = await mailEventsFunction(sns(hardBounce(people.Bob.email), hardBounce(people.Carla.email)));
    expect(summary).toMatchObject({ bounced: 2, marked: 0 });
    expect((await getUserById(people.Carla.id))?.email_suppressed).toBe('complaint');
    const upgrade = await mailEventsFunction(sns(complaint(people.Bob.email)));
    expect(upgrade.marked).toBe(1);
    expect((await getUserById(people.Bob.id))?.email_suppressed).toBe('complaint');
    expect(isEmailSuppressed((await getUserById(people.Bob.id))!)).toBe(true);
  });

  it('stops reminders to marked addresses; others still get theirs', async () => {
    const summary = await reminderWorkers({ now: new Date(Date.now() + DAY), hour: UTC_LEARNERS_HOUR, sleep: async () => {} });
    expect(summary).toMatchObject({ considered: 5, sent: 2, failed: 0 });
    const reminded = async (user: UserRecord) => (await emailsTo(user.email)).some((email) => /^Next up: /.test(email.subject));
    expect(await reminded(people.Tim)).toBe(true);
    expect(await reminded(people.Nina)).toBe(true);
    expect(await reminded(people.Bob)).toBe(false);
    expect(await reminded(people.Carla)).toBe(false);
    expect(await reminded(people.Gus)).toBe(false);
  });

  it('still sends security mail (a password reset) to a bounced address', async () => {
    const response = await api.client().post('/api/auth/password-reset/request', { email: people.Gus.email });
    expect(response.status).toBe(200);
    expect((await latestEmail(people.Gus.email, /Reset your password/)).subject).toMatch(/Reset your password/);
  });

  it('shows the mark in the admin user detail', async () => {
    expect((await adminClient.get(`/api/admin/users/${people.Gus.id}`)).body.email_suppressed).toBe('bounce');
    expect((await adminClient.get(`/api/admin/users/${people.Carla.id}`)).body.email_suppressed).toBe('complaint');
    expect((await adminClient.get(`/api/admin/users/${people.Tim.id}`)).body.email_suppressed).toBeNull();
  });
});
