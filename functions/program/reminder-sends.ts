import { sleep } from '../lib/backoff';
import { sendEmail, type Delivery, type ListEmailMessage } from '../lib/email';

/**
 * How the reminder workers send (functions/program/reminders.ts): one mail at a time on the bulk
 * stream, paced to the worker's share of the bulk send rate, SES throttling retried with backoff.
 */

const THROTTLING = new Set(['Throttling', 'ThrottlingException', 'TooManyRequestsException']);

export const isThrottling = (error: unknown) => {
  const e = error as { name?: string; Code?: string; Error?: { Code?: string } } | null;
  return Boolean(e && (THROTTLING.has(e.name ?? '') || THROTTLING.has(e.Code ?? '') || THROTTLING.has(e.Error?.Code ?? '')));
};

export const defaultSleep = sleep;

export interface SendRetryOptions {
  /** Tries per mail (default 5). */
  maxAttempts?: number;
  /** The first retry's wait; each further one doubles (default 200 ms). */
  backoffMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/** Sends one reminder on the bulk stream, retrying SES throttling with exponential backoff and jitter. */
export async function sendWithRetry(
  message: ListEmailMessage,
  { maxAttempts = 5, backoffMs = 200, sleep = defaultSleep }: SendRetryOptions = {},
): Promise<Delivery> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await sendEmail(message, 'bulk');
    } catch (error) {
      if (!isThrottling(error) || attempt >= maxAttempts) throw error;
      const delay = backoffMs * 2 ** (attempt - 1);
      await sleep(delay / 2 + Math.random() * (delay / 2));
    }
  }
}

/**
 * Paces sends to `perSecond` (one worker's share of the bulk send rate). The first send waits one
 * interval too: a worker runs slice after slice, each with a pacer of its own, and slices of one
 * or two learners sent at once would take more than the share.
 */
export function pacer(perSecond: number, sleep: (ms: number) => Promise<void>) {
  const interval = 1000 / perSecond;
  let next = performance.now() + interval;
  return async () => {
    const now = performance.now();
    const at = Math.max(now, next);
    next = at + interval;
    if (at > now) await sleep(at - now);
  };
}
