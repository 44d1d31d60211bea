import { SimClient, type Recorder } from './client';
import type { FaultLog } from './faults';
import type { Oracle } from './oracle';
import type { Persona } from './population';
import type { Rng } from './rng';
import type { SimClock } from './sim-clock';
import type { Twin, TwinResponse } from './twin';

/**
 * Everything a behaviour needs: the twin, the clock, the oracle, the run's record, and one
 * browser per simulated person.
 */
export interface Violation {
  invariant: string;
  at: number;
  detail: string;
}

export class RunRecord implements Recorder {
  readonly statuses = new Map<number, number>();
  requests = 0;
  /** Answers of 500 and above: with the faults active when they came. */
  readonly serverErrors: Array<{ at: number; method: string; path: string; status: number; error: string; faults: string[] }> = [];
  readonly violations: Violation[] = [];
  /** Lags (simulated ms) from acknowledgement to visibility, per kind of entry. */
  readonly lags = new Map<string, number[]>();
  readonly counts = new Map<string, number>();
  /** Wall milliseconds spent per phase of the simulation (where the run's time goes). */
  readonly phases = new Map<string, number>();

  constructor(
    private readonly clock: SimClock,
    private readonly activeFaults: () => string[],
  ) {}

  record(method: string, path: string, response: TwinResponse): void {
    this.requests += 1;
    this.statuses.set(response.status, (this.statuses.get(response.status) ?? 0) + 1);
    if (response.status >= 500)
      this.serverErrors.push({
        at: this.clock.now(),
        method,
        path: path.replace(/\?.*$/, ''),
        status: response.status,
        error: typeof response.body.error === 'string' ? response.body.error : '',
        faults: this.activeFaults(),
      });
  }

  violate(invariant: string, detail: string): void {
    this.violations.push({ invariant, at: this.clock.now(), detail });
  }

  lag(kind: string, ms: number): void {
    const list = this.lags.get(kind) ?? [];
    list.push(ms);
    this.lags.set(kind, list);
  }

  async time<T>(phase: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.phases.set(phase, (this.phases.get(phase) ?? 0) + performance.now() - started);
    }
  }

  count(name: string, by = 1): void {
    this.counts.set(name, (this.counts.get(name) ?? 0) + by);
  }
}

export interface World {
  twin: Twin;
  clock: SimClock;
  oracle: Oracle;
  record: RunRecord;
  faults: FaultLog;
  rng: Rng;
  people: Persona[];
  /** The simulated hour now being played. */
  hour: number;
  clientOf: (key: string, ip: string, userAgent: string) => SimClient;
  admin: { email: string; password: string; client: SimClient };
  /** The program's modules in order (slug and id), read from the seeded content. */
  modules: Array<{ id: string; slug: string }>;
  retentionDays: number;
  /** Sign-ins whose entry's visibility is timed (the stream writes it): checked after every read of the stream. */
  probes: Array<{ userId: string; at: number; kind: string }>;
}

export function clientFactory(twin: Twin, record: Recorder) {
  const clients = new Map<string, SimClient>();
  return (key: string, ip: string, userAgent: string) => {
    let client = clients.get(key);
    if (!client) {
      client = new SimClient(twin, record, ip, userAgent);
      clients.set(key, client);
    }
    return client;
  };
}
