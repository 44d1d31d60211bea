/**
 * `npm run soak` / `npm run soak:quick`: a month (or a few days) of the product in production,
 * simulated on the local twin (docs/soak.md). Exits non-zero when an invariant broke.
 */
import { parseOptions } from './options';
import { buildReport, summary, writeReport } from './report';
import { simulate } from './simulate';

async function main() {
  const options = parseOptions(process.argv.slice(2));
  const result = await simulate(options, (line) => console.log(line));
  const report = buildReport(result);
  writeReport(report, options.report);
  console.log(summary(report));
  console.log(`report: ${options.report}`);
  process.exitCode = report.held ? 0 : 1;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 2;
});
