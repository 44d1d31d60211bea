import { describe, expect, it } from 'vitest';
import { MAX_WINDOW_DAYS, RebuildWindowError, windowDays } from './derived-data-rebuild';

describe("the rebuild's window", () => {
  it('is every day from the first to the last, across a month and a year end', () => {
    expect(windowDays('2026-12-30', '2027-01-02', '2027-01-05')).toEqual(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02']);
    expect(windowDays('2027-03-01', '2027-03-01', '2027-03-01')).toEqual(['2027-03-01']);
  });

  it('refuses a day that is not a calendar day, a reversed window, one ending after today, one too long', () => {
    for (const day of ['2027-02-30', '2027-13-01', '27-01-01', '2027-1-1', ''])
      expect(() => windowDays(day, '2027-03-01', '2027-03-01'), day).toThrow(/YYYY-MM-DD/);
    expect(() => windowDays('2027-03-02', '2027-03-01', '2027-03-05')).toThrow(/starts after it ends/);
    expect(() => windowDays('2027-03-01', '2027-03-06', '2027-03-05')).toThrow(/future/);
    expect(windowDays('2027-01-01', '2027-01-31', '2027-02-01')).toHaveLength(MAX_WINDOW_DAYS);
    expect(() => windowDays('2027-01-01', '2027-02-01', '2027-02-01')).toThrow(/at most 31/);
    expect(() => windowDays('2027-01-01', '2027-02-01', '2027-02-01')).toThrow(RebuildWindowError);
  });
});
