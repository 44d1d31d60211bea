/**
 * `npm run reconcile [-- --observe]`: runs the reconciliation of the admin counters with the
 * accounts now (functions/admin/counter-reconcile.ts, the daily job's run) and prints each drift
 * and what it corrected. `--observe` compares and records only: no counter changes, nor the
 * previous run's record the next run compares with. Operator credentials and the Lambdas' own
 * configuration, like `npm run migrate`: TABLE_NAME=<the stack's table> on AWS,
 * DYNAMODB_ENDPOINT=http://127.0.0.1:8000 locally (docs/runbook.md#counter-drift).
 */
export {};

async function main() {
  if (!process.env.SESSION_SECRET && !process.env.SESSION_SECRET_ARN)
    process.env.SESSION_SECRET = 'unused-by-reconcile-unused-by-reconcile-unused';
  const { reconcileCounters } = await import('../../functions/admin/counter-reconcile');
  const { capacityMeter } = await import('../../functions/lib/db');
  const correct = !process.argv.includes('--observe');
  const result = await reconcileCounters({ correct });
  for (const [name, drift] of Object.entries(result.drift).sort())
    console.log(`${name}: drift ${drift > 0 ? '+' : ''}${drift}${name in result.corrected ? ' (corrected)' : ''}`);
  const units = capacityMeter.snapshot();
  console.log(
    `${result.day}: ${result.accounts} accounts, ${Object.keys(result.drift).length} values drifted (Σ ${result.totalDrift}), ` +
      `${Object.keys(result.corrected).length} corrected${correct ? '' : ' (--observe: nothing corrected)'}; ` +
      `${units.read} read and ${units.write} write units in ${units.calls} calls.`,
  );
}

main().catch((error) => {
  console.error(`reconcile failed: ${(error as Error).message}`);
  process.exit(1);
});
