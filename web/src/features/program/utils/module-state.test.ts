import { describe, expect, it } from 'vitest';
import { stateLabel } from './module-state';

describe('stateLabel', () => {
  it('capitalises the state', () => {
    expect(stateLabel('completed')).toBe('Completed');
    expect(stateLabel('open')).toBe('Open');
    expect(stateLabel('IN_REVIEW')).toBe('In_review');
  });
  it("defaults to 'Locked'", () => {
    expect(stateLabel(undefined)).toBe('Locked');
    expect(stateLabel('')).toBe('Locked');
  });
});
