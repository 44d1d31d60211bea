import type { RestoreOptions, ScanPosition } from './restore-copy';

/** The resume token printed after each page: the scan's position, passed back as `--resume`. */
export const resumeToken = (position: ScanPosition) => Buffer.from(JSON.stringify(position)).toString('base64url');

/** What `npm run restore-table -- --help` prints (docs/runbook.md#restore-the-table-to-a-point-in-time). */
export const RESTORE_USAGE = `Usage: npm run restore-table -- --from <restored table> --to <live table> --restore-point <ISO time>
         [--overwrite] [--segment <i> --segments <n>] [--resume <token>]

Copies a point-in-time restore (--from) back into the live table (--to), without what must not
come back: sessions, codes, reset tokens, challenges, rate limits, expired items, accounts whose
hard delete started, passkeys removed and addresses given up after --restore-point (read from
the live table and its audit log).

  --from <table>           the table restore-table-to-point-in-time created
  --to <table>             the live table (the stack's TableName output)
  --restore-point <time>   the time the restore was taken at, e.g. 2026-11-23T09:59:00Z
  --overwrite              replace live items too (corrupted data); a lookup and the profile of
                           an account whose credentials or access changed since stay as they are
  --segment <i> --segments <n>
                           one part of a parallel copy (run one process per segment, i from 0)
  --resume <token>         go on from the token a stopped run printed last
  --help                   print this

Uses the AWS credentials and region of the shell (AWS_PROFILE, AWS_REGION), as the AWS CLI does.`;

/** Whether the command line asks for the usage. */
export const wantsHelp = (argv: string[]) => argv.includes('--help') || argv.includes('-h');

/** The options of `npm run restore-table` from its command line (infra/ops/restore-table.ts). */
export function restoreOptions(argv: string[]): RestoreOptions {
  const value = (name: string) => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const [from, to, point] = [value('from'), value('to'), value('restore-point')];
  if (!from || !to || !point) throw new Error('--from, --to and --restore-point are required');
  const restorePoint = new Date(point);
  if (Number.isNaN(restorePoint.getTime())) throw new Error(`--restore-point ${point} is not a time`);
  if (from === to) throw new Error('--from and --to name the same table');
  const resume = value('resume');
  const segments = value('segments');
  return {
    restoredTable: from,
    liveTable: to,
    restorePoint,
    overwrite: argv.includes('--overwrite'),
    ...(resume ? { startAfter: JSON.parse(Buffer.from(resume, 'base64url').toString()) as ScanPosition } : {}),
    ...(segments ? { segment: { index: Number(value('segment') ?? 0), total: Number(segments) } } : {}),
  };
}
