import { adminSeedSteps } from './seed-admin';
import { contentSeedSteps } from './seed-content';
import type { SeedContext, SeedStep } from './seed-step';

/**
 * Idempotent seed steps run by `npm start` (and by tests that boot the runtime) after the table
 * exists: the administrator, then the program content. Each step may run any number of times
 * without duplicating data.
 */
export const seedSteps: SeedStep[] = [...adminSeedSteps, ...contentSeedSteps];

/** Runs every step; returns what steps reported (e.g. the admin email) for the start banner. */
export async function runSeeds(context: SeedContext): Promise<Record<string, string>> {
  const reported: Record<string, string> = {};
  for (const step of seedSteps) Object.assign(reported, (await step.run(context)) ?? {});
  return reported;
}
