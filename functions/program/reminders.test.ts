import { GetAccountCommand, SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import {
  BatchGetCommand,
  type BatchGetCommandInput,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { program } from './content';
import { reminderIndexKeys, reminderShard } from './reminder-index';
import { verifyUnsubscribeToken } from '../lib/unsubscribe-token';
import { INDEX, keys } from '../lib/table';
import { METRIC, metrics } from '../lib/metrics';
import { isThrottling, sendWithRetry } from './reminder-sends';
import { processReminderSlice, runReminders } from './reminders';

/** The job against mocked DynamoDB and SES: retries, isolation of failures, once-a-day markers. */
const dynamo = mockClient(DynamoDBDocumentClient);
const ses = mockClient(SESv2Client);
afterAll(() => {
  dynamo.restore();
  ses.restore();
});

const content = program();
const now = new Date('2030-03-05T09:00:00Z');
const throttle = () => Object.assign(new Error('Rate exceeded'), { name: 'Throttling' });
const noSleep = async () => {};

function learner(id: string) {
  return {
    user: {
      pk: `USER#${id}`,
      sk: 'PROFILE',
      id,
      email: `${id}@example.com`,
      first_name: id,
      status: 'active',
      is_locked: false,
      verified: true,
      reminder_frequency: 'daily',
    },
    enrollment: {
      user_id: id,
      program_id: content.id,
      status: 'active',
      open_module_id: content.modules[0].module_id,
      percent_complete: 0,
      enrolled_at: '2030-03-01T10:00:00Z',
      ...reminderIndexKeys(id, { frequency: 'daily', timeZone: 'UTC', enrolledAt: '2030-03-01T10:00:00Z' }, now),
    },
  };
}

function withLearners(ids: string[]) {
  const people = ids.map(learner);
  dynamo.on(QueryCommand).callsFake((input: QueryCommandInput) => {
    if (input.IndexName === INDEX.remindersDue.indexName) {
      const values = input.ExpressionAttributeValues as Record<string, string>;
      const { partitionKey, sortKey } = INDEX.remindersDue;
      const entry = (p: (typeof people)[number]) => p.enrollment as unknown as Record<string, string>;
      return {
        Items: people
          .filter((p) => entry(p)[partitionKey] === values[':ipk'] && entry(p)[sortKey].startsWith(values[':isk'] ?? ''))
          .map((p) => p.enrollment),
      };
    }
    return { Items: [{ module_id: content.modules[0].module_id, status: 'open' }] };
  });
  dynamo.on(GetCommand).resolves({}); // no checkpoint yet
  dynamo.on(BatchGetCommand).callsFake((input: BatchGetCommandInput) => {
    const [table, request] = Object.entries(input.RequestItems as Record<string, { Keys: Array<{ pk: string }> }>)[0];
    return { Responses: { [table]: people.filter((p) => request.Keys.some((key) => key.pk === p.user.pk)).map((p) => p.user) } };
  });
  dynamo.on(PutCommand).resolves({});
  dynamo.on(DeleteCommand).resolves({});
  dynamo.on(UpdateCommand).resolves({});
}

const message = { to: 'a@example.com', subject: 's', text: 't', html: '<p>h</p>', headers: [] };

beforeEach(() => {
  dynamo.reset();
  ses.reset();
  ses.on(GetAccountCommand).resolves({ SendQuota: { MaxSendRate: 14, Max24HourSend: 50_000, SentLast24Hours: 0 } });
});

describe('sendWithRetry', () => {
  it('retries SES throttling with backoff, then succeeds', async () => {
    ses
      .on(SendEmailCommand)
      .rejectsOnce(throttle())
      .rejectsOnce(Object.assign(new Error('x'), { name: 'TooManyRequestsException' }))
      .resolves({ MessageId: 'm' });
    const waits: number[] = [];
    await expect(
      sendWithRetry(message, {
        sleep: (ms) => {
          waits.push(ms);
          return Promise.resolve();
        },
        backoffMs: 100,
      }),
    ).resolves.toBe('sent');
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(waits[1]).toBeGreaterThan(waits[0] / 2); // grows: 50-100 ms, then 100-200 ms
    expect(waits[1]).toBeGreaterThanOrEqual(100);
  });

  it('gives up after maxAttempts and does not retry other errors', async () => {
    ses.on(SendEmailCommand).rejects(throttle());
    await expect(sendWithRetry(message, { sleep: noSleep, maxAttempts: 3 })).rejects.toThrow('Rate exceeded');
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(3);
    ses.reset();
    ses.on(SendEmailCommand).rejects(Object.assign(new Error('Email address is not verified'), { name: 'MessageRejected' }));
    await expect(sendWithRetry(message, { sleep: noSleep })).rejects.toThrow('not verified');
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
  });

  it('recognises every throttling error shape', () => {
    expect(isThrottling({ name: 'ThrottlingException' })).toBe(true);
    expect(isThrottling({ name: 'Error', Code: 'Throttling' })).toBe(true);
    expect(isThrottling({ name: 'MessageRejected' })).toBe(false);
    expect(isThrottling(null)).toBe(false);
  });
});

describe('runReminders', () => {
  it('emails every due learner, retrying throttling, and one failing address does not stop the batch', async () => {
    withLearners(['ann', 'bob', 'cat', 'dan']);
    ses.on(SendEmailCommand).resolves({ MessageId: 'ok' });
    ses
      .on(SendEmailCommand, { Destination: { ToAddresses: ['bob@example.com'] } })
      .rejects(Object.assign(new Error('rejected'), { name: 'MessageRejected' }));
    ses
      .on(SendEmailCommand, { Destination: { ToAddresses: ['cat@example.com'] } })
      .rejectsOnce(throttle())
      .resolves({ MessageId: 'ok' });

    const summary = await runReminders({ now, sleep: noSleep });
    expect(summary).toEqual({ considered: 4, sent: 3, skipped: 0, failed: 1 });
    const recipients = ses.commandCalls(SendEmailCommand).map((call) => call.args[0].input.Destination?.ToAddresses?.[0]);
    expect(recipients.filter((to) => to === 'cat@example.com')).toHaveLength(2); // throttled once, then sent
    expect(recipients).toContain('ann@example.com');
    expect(recipients).toContain('dan@example.com');
    // bob's once-a-day marker is released so a rerun can try again
    const deletes = dynamo.commandCalls(DeleteCommand).map((call) => call.args[0].input.Key);
    expect(deletes).toEqual([{ pk: 'USER#bob', sk: 'REMINDER#2030-03-05' }]);
    // the marker is claimed conditionally before each send
    const markers = dynamo.commandCalls(PutCommand).map((call) => call.args[0].input);
    expect(markers).toHaveLength(4);
    expect(markers.every((input) => input.ConditionExpression === 'attribute_not_exists(pk)')).toBe(true);
    // every reminder carries the one-click unsubscribe headers (RFC 8058), with that learner's own link
    const ann = ses.commandCalls(SendEmailCommand).find((call) => call.args[0].input.Destination?.ToAddresses?.[0] === 'ann@example.com')!;
    const headers = ann.args[0].input.Content?.Simple?.Headers ?? [];
    expect(headers).toContainEqual({ Name: 'List-Unsubscribe-Post', Value: 'List-Unsubscribe=One-Click' });
    const link = /^<(.+)>$/.exec(headers.find((h) => h.Name === 'List-Unsubscribe')?.Value ?? '')?.[1];
    expect(link).toMatch(/\/api\/notifications\/unsubscribe\?token=/);
    expect(await verifyUnsubscribeToken(new URL(link!).searchParams.get('token')!)).toBe('ann');
  });

  it("ends a slice at SES's spent daily quota: no further sends, markers released, the page not checkpointed", async () => {
    // three learners in one slice (one index shard, one first character)
    const ids = Array.from({ length: 60 }, (_, i) => `a${i}`)
      .filter((id) => reminderShard(id) === reminderShard('a0'))
      .slice(0, 3);
    expect(ids).toHaveLength(3);
    withLearners(ids);
    ses.on(SendEmailCommand).rejects(Object.assign(new Error('Daily message quota exceeded.'), { name: 'LimitExceededException' }));
    const summary = await runReminders({ now, sleep: noSleep, concurrency: 1 });
    expect(summary).toEqual({ considered: 0, sent: 0, skipped: 0, failed: 1 }); // the slice failed as a whole
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
    expect(dynamo.commandCalls(DeleteCommand).map((call) => call.args[0].input.Key)).toEqual([keys.reminderSent('a0', '2030-03-05')]);
    const slice = keys.reminderCheckpoint('2030-03-05', `REMIND#daily#${reminderShard('a0')}#a`);
    expect(dynamo.commandCalls(UpdateCommand).filter((call) => call.args[0].input.Key?.sk === slice.sk)).toEqual([]);
  });

  it('reads recipients only by Query on the reminder index, every partition of the day whole, or one hour with `hour`', async () => {
    withLearners(['eve']);
    ses.on(SendEmailCommand).resolves({ MessageId: 'ok' });
    await runReminders({ now, sleep: noSleep });
    const indexQueries = () =>
      dynamo.commandCalls(QueryCommand).filter((call) => call.args[0].input.IndexName === INDEX.remindersDue.indexName);
    const partitions = () => indexQueries().map((call) => call.args[0].input.ExpressionAttributeValues?.[':ipk'] as unknown);
    // 24 UTC hours × (10 daily shards + 10 shards of today's weekly partitions), each read whole
    expect(indexQueries()).toHaveLength(480);
    expect(new Set(partitions()).size).toBe(480);
    expect(partitions()).toContain('REMIND#weekly#2#17#0'); // 2030-03-05 is a Tuesday
    expect(indexQueries().every((call) => call.args[0].input.ExpressionAttributeValues?.[':isk'] === undefined)).toBe(true);
    expect(dynamo.commandCalls(BatchGetCommand)).toHaveLength(1);

    dynamo.resetHistory();
    await runReminders({ now, hour: 9, sleep: noSleep });
    expect(new Set(partitions())).toEqual(
      new Set(Array.from({ length: 10 }, (_, shard) => [`REMIND#daily#09#${shard}`, `REMIND#weekly#2#09#${shard}`]).flat()),
    );
    // one account read per learner, batched per page
    expect(dynamo.commandCalls(BatchGetCommand)).toHaveLength(1);
  });
});

describe('a slice still unfinished 12 hours after its run', () => {
  const slice = { day: '2030-03-04', now: '2030-03-04T14:00:00.000Z', partition: 'REMIND#daily#3', prefix: 'a' };

  it('is dropped and counted in ReminderSlicesUnfinished, once per slice (docs/runbook.md#reminder-slices-unfinished)', async () => {
    const addMetric = vi.spyOn(metrics, 'addMetric');
    try {
      const result = await processReminderSlice(slice, { clock: new Date('2030-03-05T02:00:01.000Z') });
      expect(result).toMatchObject({ finished: true, sent: 0 });
      expect(addMetric.mock.calls.filter(([name]) => name === METRIC.reminderSlicesUnfinished)).toEqual([
        [METRIC.reminderSlicesUnfinished, 'Count', 1],
      ]);
      // dropped before any read: its learners are in the next day's run of the hour
      expect(dynamo.calls()).toHaveLength(0);
    } finally {
      addMetric.mockRestore();
    }
  });

  it('is not counted while it is fresh, even when it ends finished', async () => {
    const addMetric = vi.spyOn(metrics, 'addMetric');
    try {
      dynamo.on(GetCommand).resolves({ Item: { done: true } }); // the slice's checkpoint: done
      expect(await processReminderSlice(slice, { clock: new Date('2030-03-04T15:00:00.000Z') })).toMatchObject({ finished: true });
      expect(addMetric.mock.calls.map(([name]) => name)).not.toContain(METRIC.reminderSlicesUnfinished);
    } finally {
      addMetric.mockRestore();
    }
  });
});
