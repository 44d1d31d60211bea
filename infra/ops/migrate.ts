/**
 * `npm run migrate [-- --again <name>]`: runs the data migrations not yet recorded in the table
 * (infra/ops/migration-steps.ts), each once, in order, and records each that ran to the end.
 * Safe to run after every deploy; `--again <name>` runs a recorded step once more. Uses
 * TABLE_NAME / DYNAMODB_ENDPOINT like make-admin (docs/runbook.md#data-migrations).
 */
export {};

async function main() {
  if (!process.env.SESSION_SECRET && !process.env.SESSION_SECRET_ARN)
    process.env.SESSION_SECRET = 'unused-by-migrate-unused-by-migrate-unused';
  const { runMigrations } = await import('./migrations');
  const { migrationSteps } = await import('./migration-steps');
  const again = process.argv.flatMap((arg, index) => (process.argv[index - 1] === '--again' ? [arg] : []));
  const run = await runMigrations(migrationSteps, { log: (line) => console.log(line) }, again);
  console.log(`done: ${run.applied.length} applied, ${run.skipped.length} already applied.`);
}

main().catch((error) => {
  console.error(`migrate failed: ${(error as Error).message}`);
  process.exit(1);
});
