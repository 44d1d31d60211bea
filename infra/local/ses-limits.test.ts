import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SES_LIMITS, SendBudget, sesLimitsFromEnv } from './ses-limits';

const HOUR = 3600 * 1000;
const start = new Date('2030-01-01T00:00:00Z');

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(start);
});
afterEach(() => {
  vi.useRealTimers();
});

const later = (ms: number) => vi.setSystemTime(Date.now() + ms);
/** Sends one mail at a time until a limit refuses; returns how many went and what refused. */
function sendUntilRefused(budget: SendBudget, max = 1000) {
  for (let sent = 0; sent < max; sent++) {
    const result = budget.take(1);
    if (typeof result === 'string') return { sent, refusal: result };
  }
  return { sent: max, refusal: undefined };
}

describe('the send rate (token bucket)', () => {
  it('lets a burst of one second of mail through, then refuses until it refills at the rate', () => {
    const budget = new SendBudget({ maxSendRate: 14, max24HourSend: 50_000 });
    expect(sendUntilRefused(budget)).toEqual({ sent: 14, refusal: 'rate' });
    later(500);
    expect(sendUntilRefused(budget)).toEqual({ sent: 7, refusal: 'rate' });
    later(10_000); // an idle account builds up one second's worth, no more
    expect(sendUntilRefused(budget)).toEqual({ sent: 14, refusal: 'rate' });
  });

  it('lets one send to several recipients overdraw the rate, then refuses until it has built up again', () => {
    const budget = new SendBudget({ maxSendRate: 1, max24HourSend: 50_000 });
    expect(typeof budget.take(5)).toBe('object');
    later(4_000);
    expect(budget.take(1)).toBe('rate');
    later(1_000);
    expect(typeof budget.take(1)).toBe('object');
  });

  it('lets an account slower than one mail a second send one mail', () => {
    const budget = new SendBudget({ maxSendRate: 0.5, max24HourSend: 50_000 });
    expect(sendUntilRefused(budget)).toEqual({ sent: 1, refusal: 'rate' });
    later(1_000);
    expect(budget.take(1)).toBe('rate');
    later(1_000);
    expect(sendUntilRefused(budget)).toEqual({ sent: 1, refusal: 'rate' });
  });
});

describe('the 24-hour quota (rolling window)', () => {
  it('refuses once the last 24 hours hold the quota, and frees each mail 24 hours after it was sent', () => {
    const budget = new SendBudget({ maxSendRate: 100, max24HourSend: 3 });
    budget.take(1);
    later(HOUR);
    budget.take(2);
    expect(budget.sentLast24Hours()).toBe(3);
    later(HOUR);
    expect(budget.take(1)).toBe('quota');
    later(22 * HOUR - 1); // 1 ms before the first mail is 24 hours old
    expect(budget.take(1)).toBe('quota');
    later(1);
    expect(budget.sentLast24Hours()).toBe(2);
    expect(typeof budget.take(1)).toBe('object');
    expect(budget.take(1)).toBe('quota');
    later(HOUR); // the two sent together leave together
    expect(budget.sentLast24Hours()).toBe(1);
  });

  it('is checked before the rate: a spent quota is reported as such even when the rate is spent too', () => {
    const budget = new SendBudget({ maxSendRate: 2, max24HourSend: 2 });
    expect(sendUntilRefused(budget)).toEqual({ sent: 2, refusal: 'quota' });
  });

  it('counts a refused send against neither budget', () => {
    const budget = new SendBudget({ maxSendRate: 1, max24HourSend: 10 });
    budget.take(1);
    for (let i = 0; i < 5; i++) expect(budget.take(1)).toBe('rate');
    expect(budget.sentLast24Hours()).toBe(1);
  });

  it('takes back a send that was given back (SES did not accept it) from both budgets', () => {
    const budget = new SendBudget({ maxSendRate: 1, max24HourSend: 10 });
    const counted = budget.take(1);
    if (typeof counted === 'string') throw new Error(`refused: ${counted}`);
    counted.giveBack();
    expect(budget.sentLast24Hours()).toBe(0);
    expect(typeof budget.take(1)).toBe('object');
  });

  it('keeps counting right over many days of sends', () => {
    const budget = new SendBudget({ maxSendRate: 1, max24HourSend: 50_000 });
    for (let i = 0; i < 3 * 24 * 60; i++) {
      expect(typeof budget.take(1)).toBe('object');
      later(60_000);
    }
    // a mail leaves the window when it is exactly 24 hours old: the one sent 24 hours ago is out
    expect(budget.sentLast24Hours()).toBe(24 * 60 - 1);
  });
});

describe('sesLimitsFromEnv', () => {
  it("defaults to a new production account's limits and reads SES_MAX_SEND_RATE / SES_MAX_24_HOUR_SEND", () => {
    expect(sesLimitsFromEnv({})).toEqual(DEFAULT_SES_LIMITS);
    expect(DEFAULT_SES_LIMITS).toEqual({ maxSendRate: 14, max24HourSend: 50_000 });
    expect(sesLimitsFromEnv({ SES_MAX_SEND_RATE: '0.5', SES_MAX_24_HOUR_SEND: '200' })).toEqual({ maxSendRate: 0.5, max24HourSend: 200 });
  });

  it('refuses values SES could not have', () => {
    expect(() => sesLimitsFromEnv({ SES_MAX_SEND_RATE: '0' })).toThrow('SES_MAX_SEND_RATE must be a positive number, got "0"');
    expect(() => sesLimitsFromEnv({ SES_MAX_SEND_RATE: 'fast' })).toThrow('SES_MAX_SEND_RATE');
    expect(() => sesLimitsFromEnv({ SES_MAX_24_HOUR_SEND: '1.5' })).toThrow('SES_MAX_24_HOUR_SEND must be a positive integer');
  });
});
