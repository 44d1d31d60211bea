import type { SeedStep } from './seed-step';

/** The program content, loaded (or updated when the content hash changed) at every start. */
export const contentSeedSteps: SeedStep[] = [
  {
    name: 'program content',
    run: async ({ log }) => {
      // Imported lazily: app modules read the environment once, after the runtime has set it.
      const [{ seedProgramContent }, { runAs }] = await Promise.all([import('../../functions/program/seed-content'), import('./iam/twin')]);
      // as the deploy-time seed function (its IAM role), which loads the same content in the cloud
      const result = await runAs('seed', seedProgramContent);
      if (result.status !== 'unchanged') log(`Program content ${result.status}: ${result.modules} modules (version ${result.version})`);
    },
  },
];
