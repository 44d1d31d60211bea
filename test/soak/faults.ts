import type { Rng } from './rng';

/**
 * The faults the simulation injects, each by seed (docs/soak.md "Faults"). DynamoDB faults are
 * answered on the wire by the proxy in front of DynamoDB Local (dynamodb-proxy.ts), so the SDK's
 * retries and the product's own retries meet them as they would meet AWS's; SES faults at the
 * local SES's front door; the rest by the harness (stream delays and outages, killed batches,
 * killed queue messages, a deploy).
 */
export type FaultKind =
  | 'dynamodb_throttle'
  | 'transaction_conflict'
  | 'ses_throttle'
  | 'ses_quota_spent'
  | 'stream_delay'
  | 'stream_outage'
  | 'stream_batch_killed'
  | 'queue_message_killed'
  | 'queue_message_duplicated'
  | 'deploy';

export const FAULT_KINDS: readonly FaultKind[] = [
  'dynamodb_throttle',
  'transaction_conflict',
  'ses_throttle',
  'ses_quota_spent',
  'stream_delay',
  'stream_outage',
  'stream_batch_killed',
  'queue_message_killed',
  'queue_message_duplicated',
  'deploy',
];

/** A fault window: from hour `from` (inclusive) to `to` (exclusive) of the simulation. */
export interface FaultWindow {
  kind: FaultKind;
  from: number;
  to: number;
}

/** What was injected: the windows planned, and how many times each kind actually struck. */
export class FaultLog {
  readonly struck = new Map<FaultKind, number>();
  constructor(readonly windows: FaultWindow[]) {}

  strike(kind: FaultKind, times = 1): void {
    this.struck.set(kind, (this.struck.get(kind) ?? 0) + times);
  }

  active(kind: FaultKind, hour: number): boolean {
    return this.windows.some((window) => window.kind === kind && hour >= window.from && hour < window.to);
  }

  windowOf(kind: FaultKind): FaultWindow | undefined {
    return this.windows.find((window) => window.kind === kind);
  }
}

/**
 * The seeded fault plan over `days` simulated days: every kind at least once (with a window of
 * its own), the stream outage longer than the stream's 24 hours when the run is long enough
 * (`outageHours`), the deploy once, mid-run.
 */
export function planFaults(rng: Rng, days: number, options: { outageHours: number; enabled: boolean }): FaultWindow[] {
  if (!options.enabled) return [];
  const hours = days * 24;
  const windows: FaultWindow[] = [];
  // leave the first day fault-free (the population registers) and the last day for recovery
  const within = (length: number) => {
    const from = 24 + rng.int(Math.max(1, hours - 48 - length));
    return { from, to: from + length };
  };
  windows.push({ kind: 'dynamodb_throttle', ...within(6 + rng.int(6)) });
  windows.push({ kind: 'transaction_conflict', ...within(6 + rng.int(6)) });
  windows.push({ kind: 'ses_throttle', ...within(3 + rng.int(4)) });
  windows.push({ kind: 'ses_quota_spent', ...within(2 + rng.int(3)) });
  windows.push({ kind: 'stream_delay', ...within(2 + rng.int(3)) });
  windows.push({ kind: 'stream_batch_killed', ...within(4) });
  windows.push({ kind: 'queue_message_killed', ...within(24) });
  windows.push({ kind: 'queue_message_duplicated', ...within(24) });
  const deployAt = Math.floor(hours / 2) + rng.int(6);
  windows.push({ kind: 'deploy', from: deployAt, to: deployAt + 1 });
  // the outage: as long as asked (more than 24 h in a full run), never over the last day
  const outage = Math.min(options.outageHours, Math.max(2, hours - 48));
  const outageFrom = Math.min(24 + rng.int(Math.max(1, hours - 48 - outage)), Math.max(24, hours - 24 - outage));
  windows.push({ kind: 'stream_outage', from: outageFrom, to: outageFrom + outage });
  return windows;
}
