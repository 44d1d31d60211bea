import type { SeedStep } from './seed';

/** The program content, loaded (or updated when the content hash changed) at every start. */
export const contentSeedSteps: SeedStep[] = [
  {
    name: 'program content',
    run: async ({ log }) => {
      // Imported lazily: app modules read the environment once, after the runtime has set it.
      const { seedProgramContent } = await import('../../functions/program/seed-content');
      const result = await seedProgramContent();
      if (result.status !== 'unchanged') log(`Program content ${result.status}: ${result.modules} modules (version ${result.version})`);
    },
  },
];
