import type { SeedStep } from './seed';

/** The administrator of DESIGN §3 (the accounts issue fills this in). */
export const adminSeedSteps: SeedStep[] = [];
