/**
 * The product's clock: every business rule that reads the current time (expiry of codes, sessions
 * and links, rate-limit windows, reminder hours, retention and erasure, audit and activity days)
 * reads it here, never from `Date` directly (eslint.config.js refuses `Date.now()` and `new Date()`
 * elsewhere in functions/ and shared/). It is the wall clock everywhere the product runs.
 *
 * One seam lets a harness move time instead of waiting for it: the month-long simulation
 * (test/soak, docs/soak.md) sets a source that it advances hour by hour, so a month of reminder
 * runs, erasures and expiries passes in minutes without touching the system time. Durations the
 * code measures for itself (a handler's time budget, a send rate's pacing, a cache's age) are not
 * business time and use `performance.now()`.
 */
let source: () => number = () => Date.now();

/** The current time, in milliseconds since the epoch. */
export const nowMs = (): number => source();

/** The current time as a Date. */
export const currentDate = (): Date => new Date(source());

/** The current time as an ISO 8601 string (what items store). */
export const nowIso = (): string => currentDate().toISOString();

/** The current time in whole seconds since the epoch (JWT claims, DynamoDB TTL). */
export const nowSeconds = (): number => Math.floor(source() / 1000);

/**
 * Replaces the clock's source (a simulation harness; never product code). Without an argument
 * the wall clock is back.
 */
export function setClockSource(next?: () => number): void {
  source = next ?? (() => Date.now());
}
