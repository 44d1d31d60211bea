import { describe, expect, it } from 'vitest';
import { rangeText } from './pagination';

describe('rangeText', () => {
  it('reads "1–25 of 31" on page 1 and "26–31 of 31" on page 2', () => {
    expect(rangeText(1, 25, 25, 31)).toBe('1–25 of 31');
    expect(rangeText(2, 25, 6, 31)).toBe('26–31 of 31');
    expect(rangeText(1, 25, 0, 0)).toBeNull();
  });
});
