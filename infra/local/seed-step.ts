/**
 * One idempotent step of the local seed (infra/local/seed.ts): it may run any number of times
 * without duplicating data, and reports what the start banner shows (e.g. the admin email).
 */
export interface SeedContext {
  log: (line: string) => void;
}
export interface SeedStep {
  name: string;
  run: (context: SeedContext) => Promise<Record<string, string> | void>;
}
