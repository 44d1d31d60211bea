/**
 * `npm run restore-table -- --from <restored table> --to <live table> --restore-point <ISO time>
 * [--overwrite] [--segment <i> --segments <n>] [--resume <token>]` (`-- --help`: the usage):
 * copies a point-in-time restore back into the live table without the items that must not come
 * back (infra/ops/restore-filter.ts). Only items the live table lacks are put unless `--overwrite`.
 * Prints the totals and a resume token after each page (docs/runbook.md#restore-the-table-to-a-point-in-time).
 * It needs only the operator's AWS credentials: nothing here reads the functions' configuration
 * (functions/lib/config.ts), whose secrets an operator's shell does not have.
 */
import { restoreCopy } from './restore-copy';
import { RESTORE_USAGE, resumeToken, restoreOptions, wantsHelp } from './restore-options';

async function main() {
  if (wantsHelp(process.argv)) {
    console.log(RESTORE_USAGE);
    return;
  }
  const totals = await restoreCopy(restoreOptions(process.argv), (sofar, next) =>
    console.log(
      `scanned ${sofar.scanned}, copied ${sofar.copied}, already live ${sofar.kept}, skipped ${JSON.stringify(sofar.skipped)}` +
        (next ? `; resume token ${resumeToken(next)}` : ''),
    ),
  );
  console.log(`done: ${totals.copied} items copied, ${totals.kept} already live, ${totals.scanned} scanned.`);
}

main().catch((error) => {
  console.error(`restore-table failed: ${(error as Error).message} (npm run restore-table -- --help: the usage)`);
  process.exit(1);
});
