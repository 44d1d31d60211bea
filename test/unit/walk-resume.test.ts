import { describe, expect, it } from 'vitest';
import { resumePosition, resumeToken } from '../../infra/ops/walk-resume';

describe('backfill resume tokens', () => {
  it('give back the position they were printed for, and the beginning without --resume', () => {
    const position = { status: 1, key: { pk: 'USER#u-1', sk: 'PROFILE', usersByStatusPk: 'locked', usersByStatusSk: '2026#u-1' } };
    expect(resumePosition(['node', 'script', '--resume', resumeToken(position)])).toEqual(position);
    expect(resumePosition(['node', 'script'])).toEqual({ status: 0 });
  });
});
