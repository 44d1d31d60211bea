/**
 * `npm run backfill-funnel [-- --resume <token>]`: counts every enrollment written before the
 * admin summary's module funnel existed (docs/data-model.md "Module funnel"). It walks the
 * accounts through the usersByStatus index (no Scan) and counts each uncounted enrollment with
 * the same version-guarded transition as a progress write (functions/program/funnel-backfill.ts).
 * Idempotent: a rerun skips what is counted; after each page it prints a resume token. Uses
 * TABLE_NAME / DYNAMODB_ENDPOINT like make-admin.
 */
export {};

async function main() {
  if (!process.env.SESSION_SECRET && !process.env.SESSION_SECRET_ARN)
    process.env.SESSION_SECRET = 'unused-by-backfill-funnel-unused-by-backfill';
  const { backfillFunnel } = await import('../../functions/program/funnel-backfill');
  type Position = Parameters<typeof backfillFunnel>[0];
  const resumeAt = process.argv.indexOf('--resume');
  const from: Position =
    resumeAt > 0 ? (JSON.parse(Buffer.from(process.argv[resumeAt + 1] ?? '', 'base64url').toString()) as Position) : { status: 0 };
  const totals = await backfillFunnel(from, (sofar, next) =>
    console.log(
      `counted ${sofar.counted}, already counted ${sofar.already}, no enrollment ${sofar.none}; resume token ${Buffer.from(JSON.stringify(next)).toString('base64url')}`,
    ),
  );
  console.log(`done: ${totals.counted} enrollments counted, ${totals.already} already counted.`);
}

main().catch((error) => {
  console.error(`backfill-funnel failed: ${(error as Error).message}`);
  process.exit(1);
});
