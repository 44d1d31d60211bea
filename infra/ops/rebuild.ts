/**
 * `npm run rebuild -- --from YYYY-MM-DD --to YYYY-MM-DD`: writes again what the table's stream
 * derives over those days (audit references, sign-in audit entries, activity markers and daily
 * active counts, the search items' last-active day, resumed reminders) from the source items, then
 * reconciles the counters (functions/admin/derived-data-rebuild.ts). For an outage of the
 * activity aggregator longer than the stream's 24 hours (docs/runbook.md#rebuilding-derived-data).
 * Prints its counts after every page; after an interruption the same command resumes from its
 * checkpoint. Operator credentials and the Lambdas' own configuration, like `npm run migrate`:
 * TABLE_NAME=<the stack's table> on AWS, DYNAMODB_ENDPOINT=http://127.0.0.1:8000 locally.
 */
export {};

const argument = (name: string) => process.argv.flatMap((arg, index) => (process.argv[index - 1] === name ? [arg] : []))[0];

async function main() {
  const from = argument('--from');
  const to = argument('--to');
  if (!from || !to) {
    console.error('Usage: npm run rebuild -- --from YYYY-MM-DD --to YYYY-MM-DD');
    process.exit(2);
  }
  if (!process.env.SESSION_SECRET && !process.env.SESSION_SECRET_ARN)
    process.env.SESSION_SECRET = 'unused-by-rebuild-unused-by-rebuild-unused-by';
  const { rebuildDerivedData } = await import('../../functions/admin/derived-data-rebuild');
  const { capacityMeter } = await import('../../functions/lib/db');
  const counted = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ');
  const result = await rebuildDerivedData({
    from,
    to,
    onProgress: ({ phase, at, counts }) => console.log(`${phase} ${at}: ${counted({ ...counts })}`),
  });
  console.log(`${result.resumed ? 'resumed and ' : ''}done ${from} … ${to}: ${counted({ ...result.counts })}`);
  const { reconciliation } = result;
  for (const [name, drift] of Object.entries(reconciliation.drift).sort())
    console.log(`  counter ${name}: drift ${drift > 0 ? '+' : ''}${drift}${name in reconciliation.corrected ? ' (corrected)' : ''}`);
  console.log(
    `counters: ${Object.keys(reconciliation.drift).length} values drifted, ${Object.keys(reconciliation.corrected).length} corrected ` +
      '(a drift is corrected when the previous reconciliation saw the same one: run `npm run reconcile` again tomorrow, or let the daily job).',
  );
  const units = capacityMeter.snapshot();
  console.log(`${units.read} read and ${units.write} write units in ${units.calls} calls.`);
}

main().catch(async (error) => {
  console.error(`rebuild failed: ${(error as Error).message}`);
  const { RebuildWindowError } = await import('../../functions/admin/derived-data-rebuild');
  if (!(error instanceof RebuildWindowError)) console.error('Run the same command again: it resumes from its checkpoint.');
  process.exit(1);
});
