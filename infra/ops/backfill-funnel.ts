/**
 * `npm run backfill-funnel [-- --resume <token>]`: counts every enrollment written before the
 * admin summary's module funnel existed (docs/data-model.md "Module funnel"). It walks the
 * accounts through the usersByStatus index (no Scan) and counts each uncounted enrollment with
 * the same version-guarded transition as a progress write (functions/program/funnel-backfill.ts).
 * Idempotent: a rerun skips what is counted; after each page it prints a resume token. Uses
 * TABLE_NAME / DYNAMODB_ENDPOINT like make-admin.
 */
import { resumePosition, resumeToken } from './walk-resume';

async function main() {
  if (!process.env.SESSION_SECRET && !process.env.SESSION_SECRET_ARN)
    process.env.SESSION_SECRET = 'unused-by-backfill-funnel-unused-by-backfill';
  const { backfillFunnel } = await import('../../functions/program/funnel-backfill');
  const totals = await backfillFunnel(resumePosition(), (sofar, next) =>
    console.log(
      `counted ${sofar.counted}, already counted ${sofar.already}, no enrollment ${sofar.none}; resume token ${resumeToken(next)}`,
    ),
  );
  console.log(`done: ${totals.counted} enrollments counted, ${totals.already} already counted.`);
}

main().catch((error) => {
  console.error(`backfill-funnel failed: ${(error as Error).message}`);
  process.exit(1);
});
