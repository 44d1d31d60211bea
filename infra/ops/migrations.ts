import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../functions/lib/db';
import { keys } from '../../functions/lib/table';
import type { SeedContext, SeedStep } from '../local/seed-step';

export interface MigrationRun {
  applied: string[];
  skipped: string[];
}

/**
 * Runs the named migrations in order. A step that ran to the end is recorded in the table
 * (MIGRATION#<name> / APPLIED, with the time), so the next run skips it; a step that failed is
 * not recorded and runs again next time (every step is idempotent). `again` names recorded steps
 * to run once more (e.g. a recount when a drift is suspected).
 */
export async function runMigrations(steps: SeedStep[], context: SeedContext, again: string[] = []): Promise<MigrationRun> {
  const unknown = again.filter((name) => !steps.some((step) => step.name === name));
  if (unknown.length) throw new Error(`unknown migration: ${unknown.join(', ')}`);
  const run: MigrationRun = { applied: [], skipped: [] };
  for (const step of steps) {
    const record = await db().send(new GetCommand({ TableName: tableName(), Key: keys.migration(step.name), ConsistentRead: true }));
    if (record.Item && !again.includes(step.name)) {
      context.log(`${step.name}: applied ${String(record.Item.applied_at)}, skipped`);
      run.skipped.push(step.name);
      continue;
    }
    await step.run(context);
    await db()
      .send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...keys.migration(step.name), name: step.name, applied_at: new Date().toISOString() },
          // a rerun with `again` keeps the first record; another operator's run may have written it meanwhile
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      )
      .catch((error: unknown) => {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      });
    context.log(`${step.name}: applied`);
    run.applied.push(step.name);
  }
  return run;
}
