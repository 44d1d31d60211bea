/**
 * `npm run recount-unverified`: sets the counters of unverified locked and unverified deleted
 * accounts (the totals of the admin user list's unverified × status views) to what the
 * usersUnverified index holds. Run it once after deploying the counters onto a table with
 * existing accounts, and whenever a drift is suspected: it prints each counter as kept, as
 * counted and the correction; a rerun prints no correction (docs/runbook.md). Uses TABLE_NAME /
 * DYNAMODB_ENDPOINT like make-admin.
 */
export {};

async function main() {
  if (!process.env.SESSION_SECRET && !process.env.SESSION_SECRET_ARN)
    process.env.SESSION_SECRET = 'unused-by-recount-unverified-unused-by-recount';
  const { recountUnverified } = await import('../../functions/admin/unverified-recount');
  for (const line of await recountUnverified())
    console.log(
      `${line.field}: kept ${line.kept}, counted ${line.counted}, ${line.corrected ? `corrected by ${line.corrected}` : 'no correction'}`,
    );
}

main().catch((error) => {
  console.error(`recount-unverified failed: ${(error as Error).message}`);
  process.exit(1);
});
