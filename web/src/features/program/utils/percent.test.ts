import { describe, expect, it } from 'vitest';
import { clampPercent, percentCompleteText } from './percent';

describe('clampPercent', () => {
  it('clamps to 0-100', () => {
    expect(clampPercent(-5)).toBe(0);
    expect(clampPercent(140)).toBe(100);
  });
  it('rounds to one decimal', () => {
    expect(clampPercent(33.333)).toBe(33.3);
    expect(clampPercent(66.66)).toBe(66.7);
    expect(clampPercent(99.96)).toBe(100);
  });
  it('reads anything non-numeric as 0', () => {
    expect(clampPercent(undefined)).toBe(0);
    expect(clampPercent(Number.NaN)).toBe(0);
    expect(clampPercent('abc')).toBe(0);
  });
});

describe('percentCompleteText', () => {
  it("formats '{n}% complete'", () => {
    expect(percentCompleteText(12.345)).toBe('12.3% complete');
    expect(percentCompleteText(250)).toBe('100.0% complete');
    expect(percentCompleteText(0)).toBe('0.0% complete');
    expect(percentCompleteText(10)).toBe('10.0% complete');
  });
});
