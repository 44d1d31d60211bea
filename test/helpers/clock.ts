import { vi } from 'vitest';

/**
 * Runs `steps` with the clock stopped: `Date` stays where it was until `advance` moves it (timers
 * stay real, so I/O and waits work). Tests of time windows (the sign-in back-off) then see exactly
 * the time they name, however slow the machine is between two requests.
 */
export async function withStoppedClock<T>(steps: (advance: (ms: number) => void) => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  try {
    return await steps((ms) => vi.setSystemTime(Date.now() + ms));
  } finally {
    vi.useRealTimers();
  }
}
