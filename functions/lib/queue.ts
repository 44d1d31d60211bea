import type { SQSClient } from '@aws-sdk/client-sqs';
import { config } from './config';
import { checkLocalCall } from './local-twin';
import { logger } from './logger';
import { waitBeforeRetry } from './backoff';
import { nowMs } from './clock';

/**
 * Background work (docs/scale-writes.md): hard-delete continuations and reminder shards.
 * In the cloud a message goes to the queue's SQS URL (a worker Lambda consumes it); locally the
 * runtime (infra/local) registers the very same worker functions as in-process consumers, so
 * `npm start` and `npm run reminders` run the same path without SQS.
 */
export type QueueName = 'purge' | 'reminders';
export type Consumer<Body = unknown> = (body: Body) => Promise<void>;

const localConsumers = new Map<QueueName, Consumer>();
/**
 * The queues' maxReceiveCount (infra/constructs/work-queue.ts): a message that fails this many
 * times is a dead letter, locally as in SQS.
 */
export const LOCAL_MAX_RECEIVES = 5;
/**
 * A failed local message is visible again after the queues' visibility timeout (six worker
 * timeouts of 15 minutes, infra/constructs/work-queue.ts), on the product's clock: a harness that
 * moves the clock sees the redelivery when it passes, the local runtime after the real wait.
 */
export const LOCAL_VISIBILITY_TIMEOUT_MS = 6 * 15 * 60_000;

interface LocalMessage {
  name: QueueName;
  body: unknown;
  /** When it becomes visible, on the product's clock (a delayed send). */
  visibleAt: number;
  receives: number;
}
/** Delayed messages not yet visible; delivered by their timer or by `drainLocalQueues` once the clock reaches them. */
const delayed = new Set<LocalMessage>();
const inFlight = new Set<Promise<void>>();
const deadLetters: Array<{ queue: QueueName; body: unknown; error: string }> = [];
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

/** The local messages that failed LOCAL_MAX_RECEIVES times (the dead-letter queues' stand-in), oldest first. */
export function localDeadLetters(): ReadonlyArray<{ queue: QueueName; body: unknown; error: string }> {
  return deadLetters;
}

/**
 * Resolves when every in-process message that is visible (and what it enqueued) has been
 * handled. Delayed messages and redeliveries whose time has come on the product's clock are
 * delivered too: a harness that moves the clock (functions/lib/clock.ts) drains them without
 * waiting for their timers.
 */
export async function drainLocalQueues(): Promise<void> {
  for (;;) {
    for (const message of delayed) if (message.visibleAt <= nowMs()) deliver(message);
    if (!inFlight.size) return;
    await Promise.allSettled([...inFlight]);
  }
}

/**
 * Hands a message to its queue's consumer, as an SQS event source does: a failure makes it visible
 * again after the visibility timeout (a redelivery), and after LOCAL_MAX_RECEIVES receives it is a
 * dead letter. A consumer unregistered meanwhile drops it with a warning.
 */
function deliver(message: LocalMessage): void {
  delayed.delete(message);
  const run = (async () => {
    const consumer = localConsumers.get(message.name);
    if (!consumer) {
      logger.warn('no local consumer: message dropped', { queue: message.name });
      return;
    }
    message.receives += 1;
    try {
      await consumer(message.body);
    } catch (error) {
      if (message.receives >= LOCAL_MAX_RECEIVES) {
        deadLetters.push({ queue: message.name, body: message.body, error: (error as Error).message });
        logger.error('local queue message is a dead letter', { queue: message.name, receives: message.receives, error: error as Error });
        return;
      }
      logger.warn('local queue message failed: delivered again after the visibility timeout', {
        queue: message.name,
        receives: message.receives,
        error: error as Error,
      });
      later(message, LOCAL_VISIBILITY_TIMEOUT_MS);
    }
  })();
  inFlight.add(run);
  void run.finally(() => inFlight.delete(run));
}

/** Makes a message visible `delayMs` from now on the product's clock (its timer, for the real clock, never keeps a process alive). */
function later(message: LocalMessage, delayMs: number): void {
  message.visibleAt = nowMs() + delayMs;
  delayed.add(message);
  const timer = setTimeout(() => {
    if (delayed.has(message)) deliver(message);
  }, delayMs);
  timer.unref();
}

function runLocally(name: QueueName, body: unknown, delaySeconds: number): boolean {
  if (!localConsumers.has(name)) return false;
  const message: LocalMessage = { name, body, visibleAt: nowMs(), receives: 0 };
  if (delaySeconds <= 0) deliver(message);
  else later(message, delaySeconds * 1000);
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
