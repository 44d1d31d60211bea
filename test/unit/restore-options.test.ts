import { describe, expect, it } from 'vitest';
import { restoreOptions, resumeToken } from '../../infra/ops/restore-options';

const base = ['node', 'restore-table.ts', '--from', 'app-restored', '--to', 'app', '--restore-point', '2026-11-23T09:59:00Z'];

describe('the restore tool command line', () => {
  it('copies into the live table, only missing items, from the start unless told otherwise', () => {
    expect(restoreOptions(base)).toEqual({
      restoredTable: 'app-restored',
      liveTable: 'app',
      restorePoint: new Date('2026-11-23T09:59:00Z'),
      overwrite: false,
    });
    const position = { pk: 'USER#u-1', sk: 'PROFILE' };
    expect(restoreOptions([...base, '--overwrite', '--resume', resumeToken(position), '--segment', '1', '--segments', '4'])).toEqual(
      expect.objectContaining({ overwrite: true, startAfter: position, segment: { index: 1, total: 4 } }),
    );
  });

  it('refuses a missing table or time, a time it cannot read and the same table twice', () => {
    expect(() => restoreOptions(base.slice(0, 6))).toThrow('--restore-point');
    expect(() => restoreOptions([...base.slice(0, 7), 'yesterday'])).toThrow('is not a time');
    expect(() => restoreOptions(['node', 'x', '--from', 'app', '--to', 'app', '--restore-point', '2026-11-23T09:59:00Z'])).toThrow(
      'same table',
    );
  });
});
