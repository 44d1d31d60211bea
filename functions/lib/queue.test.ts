import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from './config';
import { setClockSource } from './clock';
import {
  drainLocalQueues,
  enqueue,
  enqueueAll,
  LOCAL_MAX_RECEIVES,
  LOCAL_VISIBILITY_TIMEOUT_MS,
  localDeadLetters,
  registerLocalConsumer,
  unregisterLocalConsumers,
} from './queue';

const sqs = mockClient(SQSClient);
afterAll(() => sqs.restore());
afterEach(() => {
  sqs.reset();
  unregisterLocalConsumers();
  delete process.env.REMINDER_QUEUE_URL;
  delete process.env.PURGE_QUEUE_URL;
  resetConfigForTests();
});

describe('queue', () => {
  it('sends to SQS in batches of ten and retries the entries SQS refused', async () => {
    process.env.REMINDER_QUEUE_URL = 'https://sqs.test/reminders';
    resetConfigForTests();
    sqs
      .on(SendMessageBatchCommand)
      .resolvesOnce({ Successful: [], Failed: [{ Id: '3', SenderFault: false, Code: 'InternalError' }] })
      .resolves({ Successful: [] });
    await enqueueAll(
      'reminders',
      Array.from({ length: 23 }, (_, index) => ({ index })),
    );
    const calls = sqs
      .commandCalls(SendMessageBatchCommand)
      .map((call) => call.args[0].input.Entries!.map((entry) => (JSON.parse(entry.MessageBody!) as { index: number }).index));
    expect(calls).toEqual([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [3], [10, 11, 12, 13, 14, 15, 16, 17, 18, 19], [20, 21, 22]]);
  });

  it('sends one delayed message to its queue', async () => {
    process.env.PURGE_QUEUE_URL = 'https://sqs.test/purge';
    resetConfigForTests();
    sqs.on(SendMessageCommand).resolves({});
    await enqueue('purge', { user_id: 'u-1' }, 60);
    expect(sqs.commandCalls(SendMessageCommand)[0].args[0].input).toEqual({
      QueueUrl: 'https://sqs.test/purge',
      MessageBody: '{"user_id":"u-1"}',
      DelaySeconds: 60,
    });
  });

  it('runs messages in-process when no queue is configured (the local runtime), including what they enqueue', async () => {
    const seen: unknown[] = [];
    registerLocalConsumer('reminders', async (body: { n: number }) => {
      seen.push(body);
      if (body.n < 3) await enqueue('reminders', { n: body.n + 1 });
    });
    await enqueue('reminders', { n: 1 });
    await drainLocalQueues();
    expect(seen).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });

  it('delivers a failed local message again after the visibility timeout, as SQS does, and makes it a dead letter after the queue’s receive count', async () => {
    const tries: number[] = [];
    registerLocalConsumer('purge', (body: { n: number; failures: number }) => {
      tries.push(body.n);
      return tries.filter((n) => n === body.n).length <= body.failures
        ? Promise.reject(new Error(`step ${body.n} stopped`))
        : Promise.resolve();
    });
    let at = Date.parse('2026-03-01T10:00:00Z');
    setClockSource(() => at);
    try {
      const deadBefore = localDeadLetters().length;
      await enqueue('purge', { n: 1, failures: 2 });
      await enqueue('purge', { n: 2, failures: 99 });
      await drainLocalQueues();
      expect(tries).toEqual([1, 2]);
      // not visible again before the visibility timeout
      at += LOCAL_VISIBILITY_TIMEOUT_MS - 1;
      await drainLocalQueues();
      expect(tries).toHaveLength(2);
      for (let round = 0; round < LOCAL_MAX_RECEIVES; round++) {
        at += LOCAL_VISIBILITY_TIMEOUT_MS;
        await drainLocalQueues();
      }
      expect(tries.filter((n) => n === 1)).toHaveLength(3);
      expect(tries.filter((n) => n === 2)).toHaveLength(LOCAL_MAX_RECEIVES);
      expect(localDeadLetters().slice(deadBefore)).toEqual([{ queue: 'purge', body: { n: 2, failures: 99 }, error: 'step 2 stopped' }]);
    } finally {
      setClockSource();
    }
  });

  it('delivers a delayed local message once the product’s clock reaches it', async () => {
    const seen: unknown[] = [];
    registerLocalConsumer('reminders', (body: unknown) => {
      seen.push(body);
      return Promise.resolve();
    });
    let at = Date.parse('2026-03-01T10:00:00Z');
    setClockSource(() => at);
    try {
      await enqueue('reminders', { later: true }, 600);
      await drainLocalQueues();
      expect(seen).toEqual([]);
      at += 600_000;
      await drainLocalQueues();
      expect(seen).toEqual([{ later: true }]);
    } finally {
      setClockSource();
    }
  });
});
