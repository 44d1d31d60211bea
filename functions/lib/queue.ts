import type { SQSClient } from '@aws-sdk/client-sqs';
import { config } from './config';
import { checkLocalCall } from './local-twin';
import { logger } from './logger';
import { waitBeforeRetry } from './backoff';

/**
 * Background work (docs/scale-writes.md): hard-delete continuations and reminder shards.
 * In the cloud a message goes to the queue's SQS URL (a worker Lambda consumes it); locally the
 * runtime (infra/local) registers the very same worker functions as in-process consumers, so
 * `npm start` and `npm run reminders` run the same path without SQS.
 */
export type QueueName = 'purge' | 'reminders';
export type Consumer<Body = unknown> = (body: Body) => Promise<void>;

const localConsumers = new Map<QueueName, Consumer>();
const inFlight = new Set<Promise<void>>();
/** The SQS client module, loaded on the first send: only the routes that start background work need it (docs/lean-builds.md#cold-start). */
// eslint-disable-next-line import-x/no-unresolved -- ./sqs-client.ts; in a bundle, the file beside index.js (LAZY_CHUNKS)
const sqsModule = () => import('./sqs-client.js');
let sqs: SQSClient | undefined;

const urlOf = (name: QueueName) => (name === 'purge' ? config().purgeQueueUrl : config().reminderQueueUrl);

/** The local runtime (and tests) run a queue's messages in this process. */
export function registerLocalConsumer<Body>(name: QueueName, consumer: Consumer<Body>): void {
  // A message reaches its consumer as it was enqueued (as SQS JSON does): the body's type is the registrant's.
  localConsumers.set(name, consumer as Consumer);
}

export function unregisterLocalConsumers(): void {
  localConsumers.clear();
}

/** Resolves when every in-process message (and what it enqueued) has been handled. */
export async function drainLocalQueues(): Promise<void> {
  while (inFlight.size) await Promise.allSettled([...inFlight]);
}

function runLocally(name: QueueName, body: unknown, delaySeconds: number): boolean {
  const consumer = localConsumers.get(name);
  if (!consumer) return false;
  const run = new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      consumer(body)
        .catch((error: unknown) => logger.error('local queue message failed', { queue: name, error: error as Error }))
        .finally(resolve);
    }, delaySeconds * 1000);
    // a delayed safety net must not keep a CLI run alive
    if (delaySeconds > 0) timer.unref();
  });
  if (delaySeconds === 0) {
    inFlight.add(run);
    void run.finally(() => inFlight.delete(run));
  }
  return true;
}

/** Sends one message (optionally delayed, at most 900 s). */
export async function enqueue(name: QueueName, body: unknown, delaySeconds = 0): Promise<void> {
  const url = urlOf(name);
  if (!url) {
    // run in-process, after the local runtime has checked the role may send to the queue
    await checkLocalCall('sqs:SendMessage', { kind: 'queue', name });
    if (!runLocally(name, body, delaySeconds)) logger.warn('no queue configured: message dropped', { queue: name });
    return;
  }
  const { SendMessageCommand, SQSClient } = await sqsModule();
  sqs ??= new SQSClient({ region: config().region });
  await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: JSON.stringify(body), DelaySeconds: delaySeconds }));
}

/** Sends many messages, ten per SendMessageBatch call; failed entries are retried, then thrown. */
export async function enqueueAll(name: QueueName, bodies: unknown[]): Promise<void> {
  const url = urlOf(name);
  if (!url) {
    for (const body of bodies) await enqueue(name, body);
    return;
  }
  const { SendMessageBatchCommand, SQSClient } = await sqsModule();
  sqs ??= new SQSClient({ region: config().region });
  for (let start = 0; start < bodies.length; start += 10) {
    let entries = bodies.slice(start, start + 10).map((body, index) => ({ Id: String(index), MessageBody: JSON.stringify(body) }));
    for (let attempt = 0; entries.length; attempt++) {
      const result = await sqs.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: entries }));
      const failed = new Set((result.Failed ?? []).map((entry) => entry.Id));
      entries = entries.filter((entry) => failed.has(entry.Id));
      if (entries.length && attempt >= 4) throw new Error(`SQS refused ${entries.length} messages`);
      if (entries.length) await waitBeforeRetry(attempt, 100);
    }
  }
}
