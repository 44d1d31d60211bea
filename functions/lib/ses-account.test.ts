import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forgetSesAccount, noteMailSent, sesAccountFigures, SES_ACCOUNT_MAX_AGE_MS, type SendQuota } from './ses-account';

/** GetAccount read at most once per container per SES_ACCOUNT_MAX_AGE_MS, with this container's own sends on top. */
const quota = (sent: number): SendQuota => ({ Max24HourSend: 50_000, MaxSendRate: 14, SentLast24Hours: sent });

beforeEach(() => {
  forgetSesAccount();
  vi.useFakeTimers({ toFake: ['performance'] });
});
afterEach(() => vi.useRealTimers());

describe('sesAccountFigures', () => {
  it('keeps a read for its age, counting the mails this container sent since, then reads again', async () => {
    const read = vi.fn<() => Promise<SendQuota>>().mockResolvedValueOnce(quota(100)).mockResolvedValueOnce(quota(900));
    expect(await sesAccountFigures(read)).toEqual({ max24HourSend: 50_000, maxSendRate: 14, sentLast24Hours: 100 });
    noteMailSent();
    noteMailSent();
    vi.advanceTimersByTime(SES_ACCOUNT_MAX_AGE_MS - 1);
    expect((await sesAccountFigures(read)).sentLast24Hours).toBe(102);
    expect(read).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    // SES's own figure again: it already holds this container's mails
    expect((await sesAccountFigures(read)).sentLast24Hours).toBe(900);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('reads at every call with an age of 0 (the bulk budget), and concurrent reads share one call', async () => {
    const read = vi.fn<() => Promise<SendQuota>>().mockResolvedValue(quota(5));
    await Promise.all([sesAccountFigures(read, 0), sesAccountFigures(read, 0)]);
    expect(read).toHaveBeenCalledTimes(1);
    await sesAccountFigures(read, 0);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('throws a failed read, and again without a call until the age has passed', async () => {
    const denied = Object.assign(new Error('denied'), { name: 'AccessDeniedException' });
    const read = vi.fn<() => Promise<SendQuota>>().mockRejectedValueOnce(denied).mockResolvedValue(quota(7));
    await expect(sesAccountFigures(read)).rejects.toBe(denied);
    await expect(sesAccountFigures(read)).rejects.toBe(denied);
    expect(read).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(SES_ACCOUNT_MAX_AGE_MS);
    expect((await sesAccountFigures(read)).sentLast24Hours).toBe(7);
  });

  it('answers zero limits for an answer without a quota (nothing to share out)', async () => {
    expect(await sesAccountFigures(() => Promise.resolve(undefined))).toEqual({ max24HourSend: 0, maxSendRate: 0, sentLast24Hours: 0 });
  });
});
