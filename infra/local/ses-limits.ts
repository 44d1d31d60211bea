/**
 * SES's sending limits, as the local SES enforces them (docs/architecture.md#3-running-on-one-machine):
 * a maximum send rate and a rolling 24-hour sending quota. Both count recipients, not requests.
 * A send goes through while at least one mail is left in each budget (SES lets one call to
 * several recipients overdraw the rate, then refuses until it has built up again).
 */
export interface SesLimits {
  /** Mails per second (SES `MaxSendRate`); also the burst SES lets through at once. */
  maxSendRate: number;
  /** Mails per rolling 24 hours (SES `Max24HourSend`). */
  max24HourSend: number;
}

/** A new production SES account's limits. */
export const DEFAULT_SES_LIMITS: SesLimits = { maxSendRate: 14, max24HourSend: 50_000 };

const DAY_MS = 24 * 3600 * 1000;

/** SES_MAX_SEND_RATE (a positive number) and SES_MAX_24_HOUR_SEND (a positive integer), else the defaults. */
export function sesLimitsFromEnv(env: NodeJS.ProcessEnv): SesLimits {
  const read = (name: string, fallback: number, integer: boolean) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
      throw new Error(`${name} must be a positive ${integer ? 'integer' : 'number'}, got "${raw}"`);
    }
    return value;
  };
  return {
    maxSendRate: read('SES_MAX_SEND_RATE', DEFAULT_SES_LIMITS.maxSendRate, false),
    max24HourSend: read('SES_MAX_24_HOUR_SEND', DEFAULT_SES_LIMITS.max24HourSend, true),
  };
}

/** Which limit refused a send. */
export type SesRefusal = 'rate' | 'quota';

/** A send counted against the budgets; `giveBack` when SES did not accept it after all. */
export interface CountedSend {
  giveBack: () => void;
}

interface WindowEntry {
  at: number;
  recipients: number;
}

/** One SES account's budgets: a token bucket for the rate, a rolling window for the quota. */
export class SendBudget {
  private tokens: number;
  private refilledAt: number;
  private readonly window: WindowEntry[] = [];
  /** Index of the oldest entry still inside the 24 hours. */
  private oldest = 0;
  private sentInWindow = 0;

  constructor(
    readonly limits: SesLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = this.capacity;
    this.refilledAt = now();
  }

  /** At least one whole mail, so that an account slower than one a second can send at all. */
  private get capacity(): number {
    return Math.max(1, this.limits.maxSendRate);
  }

  /** Counts a send of `recipients`, or names the spent limit (then nothing is counted). */
  take(recipients: number): CountedSend | SesRefusal {
    const now = this.now();
    this.expire(now);
    if (this.sentInWindow >= this.limits.max24HourSend) return 'quota';
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.refilledAt) / 1000) * this.limits.maxSendRate);
    this.refilledAt = now;
    if (this.tokens < 1) return 'rate';
    this.tokens -= recipients;
    const entry: WindowEntry = { at: now, recipients };
    this.window.push(entry);
    this.sentInWindow += recipients;
    return {
      giveBack: () => {
        const at = this.now();
        this.expire(at);
        this.tokens = Math.min(this.capacity, this.tokens + entry.recipients);
        if (entry.at > at - DAY_MS) this.sentInWindow -= entry.recipients;
        entry.recipients = 0;
      },
    };
  }

  /** Mails sent in the last 24 hours (SES `SentLast24Hours`). */
  sentLast24Hours(): number {
    this.expire(this.now());
    return this.sentInWindow;
  }

  private expire(now: number): void {
    while (this.oldest < this.window.length && this.window[this.oldest].at <= now - DAY_MS) {
      this.sentInWindow -= this.window[this.oldest].recipients;
      this.oldest += 1;
    }
    // Drop the expired head now and then instead of shifting the array on every send.
    if (this.oldest > 1024 && this.oldest * 2 > this.window.length) {
      this.window.splice(0, this.oldest);
      this.oldest = 0;
    }
  }
}
