/**
 * The one back-off of functions/: exponential with full jitter (a random wait up to the capped
 * exponential), so the retries of a burst spread out instead of colliding again. Used by the
 * write retries (retry.ts), unprocessed batch items (batch-items.ts) and refused queue entries.
 */

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The wait before retry number `retry` (0-based): full jitter, capped. */
export const backoffDelay = (retry: number, baseMs: number, capMs: number, random: () => number = Math.random) =>
  Math.floor(random() * Math.min(capMs, baseMs * 2 ** retry));

/** Waits before retry number `retry` (0-based) of something a service left undone. */
export const waitBeforeRetry = (retry: number, baseMs = 50, capMs = 2_000) => sleep(backoffDelay(retry, baseMs, capMs));
