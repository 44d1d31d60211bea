import type { RestoreOptions, ScanPosition } from './restore-copy';

/** The resume token printed after each page: the scan's position, passed back as `--resume`. */
export const resumeToken = (position: ScanPosition) => Buffer.from(JSON.stringify(position)).toString('base64url');

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
