import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { RESTORE_USAGE, restoreOptions, resumeToken } from '../../infra/ops/restore-options';

const root = join(import.meta.dirname, '..', '..');

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

  it('prints its usage from the command the runbook names, in a shell with nothing but PATH and HOME', async () => {
    // an operator's shell: none of the functions' variables (SESSION_SECRET, TABLE_NAME, STAGE…)
    const { stdout, stderr } = await promisify(execFile)('npm', ['run', '--silent', 'restore-table', '--', '--help'], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    expect(stdout).toBe(`${RESTORE_USAGE}\n`);
    expect(stderr).not.toMatch(/required/);
  });
});
