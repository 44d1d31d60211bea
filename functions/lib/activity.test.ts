import { describe, expect, it } from 'vitest';
import { dayOf } from './activity';

describe('dayOf', () => {
  it('is the UTC calendar day', () => {
    expect(dayOf(new Date('2026-11-23T23:59:59.999Z'))).toBe('2026-11-23');
    expect(dayOf(new Date('2026-11-24T00:00:00.000Z'))).toBe('2026-11-24');
  });
});
