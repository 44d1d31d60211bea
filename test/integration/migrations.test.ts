import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../functions/lib/db';
import { keys } from '../../functions/lib/table';
import { migrationSteps } from '../../infra/ops/migration-steps';
import { runMigrations } from '../../infra/ops/migrations';
import { createTestUser } from '../helpers/users';

/**
 * `npm run migrate` (infra/ops/migrations.ts): every named step runs once and is recorded; a
 * rerun skips the recorded ones, a failed step is not recorded and runs again next time.
 */
const quiet = { log: () => undefined };
const record = async (name: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.migration(name), ConsistentRead: true }))).Item;

describe('data migrations', () => {
  it('runs each step once, records it, and a rerun skips it unless named again', async () => {
    await createTestUser({ verified: false, status: 'locked' });
    const names = migrationSteps.map((step) => step.name);
    expect(names).toEqual(['backfill-funnel', 'recount-unverified', 'backfill-search-items']);

    expect(await runMigrations(migrationSteps, quiet)).toEqual({ applied: names, skipped: [] });
    for (const name of names) {
      const item = await record(name);
      expect(item?.name).toBe(name);
      expect(Date.parse(String(item?.applied_at))).not.toBeNaN();
    }

    expect(await runMigrations(migrationSteps, quiet)).toEqual({ applied: [], skipped: names });
    expect(await runMigrations(migrationSteps, quiet, ['recount-unverified'])).toEqual({
      applied: ['recount-unverified'],
      skipped: ['backfill-funnel', 'backfill-search-items'],
    });
    await expect(runMigrations(migrationSteps, quiet, ['no-such-step'])).rejects.toThrow('unknown migration: no-such-step');
  });

  it('does not record a step that failed, so the next run runs it again', async () => {
    let attempts = 0;
    const flaky = [
      {
        name: 'probe-flaky-step',
        run: () => {
          attempts += 1;
          return attempts === 1 ? Promise.reject(new Error('interrupted')) : Promise.resolve();
        },
      },
    ];
    await expect(runMigrations(flaky, quiet)).rejects.toThrow('interrupted');
    expect(await record('probe-flaky-step')).toBeUndefined();
    expect(await runMigrations(flaky, quiet)).toEqual({ applied: ['probe-flaky-step'], skipped: [] });
    expect(attempts).toBe(2);
  });
});
