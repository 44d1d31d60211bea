import { setClockSource } from '../../functions/lib/clock';

const HOUR_MS = 3600 * 1000;

/**
 * The simulated clock, installed through the product's one clock seam (functions/lib/clock.ts):
 * the harness moves it to each scheduled moment; between moves it runs at the wall clock's pace,
 * so rate windows of a second (SES's send rate, API throttles) behave as they do in production.
 * The system time is never changed.
 */
export class SimClock {
  private base: number;
  private anchor = Date.now();

  constructor(readonly start: number) {
    this.base = start;
    setClockSource(() => this.now());
  }

  now(): number {
    return this.base + (Date.now() - this.anchor);
  }

  /** Moves the clock to `at` (never backwards: a moment already passed keeps the present). */
  set(at: number): void {
    if (at <= this.now()) return;
    this.base = at;
    this.anchor = Date.now();
  }

  /** The simulated hour (0-based) `at` falls in. */
  hourOf(at = this.now()): number {
    return Math.floor((at - this.start) / HOUR_MS);
  }

  /** The start of simulated hour `hour`. */
  hourStart(hour: number): number {
    return this.start + hour * HOUR_MS;
  }

  uninstall(): void {
    setClockSource();
  }
}
