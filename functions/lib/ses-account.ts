/**
 * The SES account's limits and use (SES v2 GetAccount `SendQuota`), which the mail budgets are
 * derived from (docs/security.md#outbound-mail-budget): never a number in the code, so a quota
 * AWS raises is used within minutes, without a deploy.
 */
export interface SesAccountFigures {
  /** Mails per rolling 24 hours (`Max24HourSend`). */
  max24HourSend: number;
  /** Mails per second (`MaxSendRate`). */
  maxSendRate: number;
  /** Mails the account sent in the last 24 hours: SES's figure at the read, plus what this container sent since. */
  sentLast24Hours: number;
}

/**
 * How long a container keeps what GetAccount said. GetAccount is an API call of its own (with a
 * low request rate): a read per mail would cost more than the mail. Within this age the figures
 * miss only what other containers sent since the read, at most the account's send rate times
 * this age (docs/security.md#outbound-mail-budget has the arithmetic).
 */
export const SES_ACCOUNT_MAX_AGE_MS = 120_000;

interface Read {
  figures: Omit<SesAccountFigures, 'sentLast24Hours'> & { sentAtRead: number };
  readAt: number;
  /** Mails this container sent since the read. */
  sentSince: number;
}

let last: Read | undefined;
/** A failed read, kept as long as a good one: a GetAccount that fails (throttled, denied) is not asked again per mail. */
let failed: { error: unknown; at: number } | undefined;
let reading: Promise<Read> | undefined;

/** The SendQuota part of a GetAccount answer. */
export interface SendQuota {
  Max24HourSend?: number;
  MaxSendRate?: number;
  SentLast24Hours?: number;
}

/**
 * The account's figures, read with `read` (GetAccount) when the last read is older than
 * `maxAgeMs` (0: always read). Concurrent reads share one call; a failure is thrown, and thrown
 * again without a call until `maxAgeMs` has passed.
 */
export async function sesAccountFigures(
  read: () => Promise<SendQuota | undefined>,
  maxAgeMs = SES_ACCOUNT_MAX_AGE_MS,
): Promise<SesAccountFigures> {
  // a cache's age, not business time (functions/lib/clock.ts)
  const now = performance.now();
  if (maxAgeMs > 0 && failed && now - failed.at < maxAgeMs) throw failed.error;
  const current = last && maxAgeMs > 0 && now - last.readAt < maxAgeMs ? last : await readOnce(read, now);
  const { max24HourSend, maxSendRate, sentAtRead } = current.figures;
  return { max24HourSend, maxSendRate, sentLast24Hours: sentAtRead + current.sentSince };
}

function readOnce(read: () => Promise<SendQuota | undefined>, now: number): Promise<Read> {
  reading ??= read()
    .then(
      (quota) => {
        failed = undefined;
        last = {
          figures: {
            max24HourSend: quota?.Max24HourSend ?? 0,
            maxSendRate: quota?.MaxSendRate ?? 0,
            sentAtRead: quota?.SentLast24Hours ?? 0,
          },
          readAt: now,
          sentSince: 0,
        };
        return last;
      },
      (error: unknown) => {
        failed = { error, at: now };
        throw error;
      },
    )
    .finally(() => {
      reading = undefined;
    });
  return reading;
}

/** One more mail this container sent (either stream): counted on top of the last read. */
export function noteMailSent(): void {
  if (last) last.sentSince += 1;
}

/** Forgets the last read (tests that point the product at another SES account). */
export function forgetSesAccount(): void {
  last = undefined;
  failed = undefined;
  reading = undefined;
}
