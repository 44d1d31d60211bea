/**
 * `npm run backfill-search-items [-- --resume <token>]`: gives the admin search items written
 * before they carried the account's status, verification and `shadowed` those fields, so the
 * search filters on them (functions/admin/search-items-backfill.ts). Run it once after deploying
 * that change onto a table with existing accounts; until then those items are still found, only
 * checked on their accounts. Idempotent: a rerun updates nothing; after each page it prints a
 * resume token (docs/runbook.md). Uses TABLE_NAME / DYNAMODB_ENDPOINT like make-admin.
 */
import { resumePosition, resumeToken } from './walk-resume';

async function main() {
  if (!process.env.SESSION_SECRET && !process.env.SESSION_SECRET_ARN)
    process.env.SESSION_SECRET = 'unused-by-backfill-search-items-unused-by-backfill';
  const { backfillSearchItems } = await import('../../functions/admin/search-items-backfill');
  const totals = await backfillSearchItems(resumePosition(), (sofar, next) =>
    console.log(
      `accounts ${sofar.accounts}, items updated ${sofar.updated}, already current ${sofar.current}; resume token ${resumeToken(next)}`,
    ),
  );
  console.log(`done: ${totals.accounts} accounts, ${totals.updated} search items updated, ${totals.current} already current.`);
}

main().catch((error) => {
  console.error(`backfill-search-items failed: ${(error as Error).message}`);
  process.exit(1);
});
