import type { SeedStep } from './seed';

/** The program content (the program issue fills this in). */
export const contentSeedSteps: SeedStep[] = [];
