/**
 * `npm run restore-table -- --from <restored table> --to <live table> --restore-point <ISO time>
 * [--overwrite] [--segment <i> --segments <n>] [--resume <token>]`: copies a point-in-time
 * restore back into the live table without the items that must not come back (sessions, codes,
 * reset tokens, challenges, rate limits, hard-deleted accounts, passkeys removed since;
 * infra/ops/restore-filter.ts). Only items the live table lacks are put unless `--overwrite`.
 * Prints the totals and a resume token after each page (docs/runbook.md#restore-the-table-to-a-point-in-time).
 */
import { restoreCopy } from './restore-copy';
import { resumeToken, restoreOptions } from './restore-options';

async function main() {
  const totals = await restoreCopy(restoreOptions(process.argv), (sofar, next) =>
    console.log(
      `scanned ${sofar.scanned}, copied ${sofar.copied}, already live ${sofar.kept}, skipped ${JSON.stringify(sofar.skipped)}` +
        (next ? `; resume token ${resumeToken(next)}` : ''),
    ),
  );
  console.log(`done: ${totals.copied} items copied, ${totals.kept} already live, ${totals.scanned} scanned.`);
}

main().catch((error) => {
  console.error(`restore-table failed: ${(error as Error).message}`);
  process.exit(1);
});
