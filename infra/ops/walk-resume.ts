import type { WalkPosition } from '../../functions/lib/account-walk';

/**
 * The resume token of the backfills that walk every account (functions/lib/account-walk.ts):
 * printed after each page, passed back as `-- --resume <token>` to go on from there.
 */
export const resumeToken = (position: WalkPosition) => Buffer.from(JSON.stringify(position)).toString('base64url');

/** Where to start: the position of `--resume <token>` on the command line, else the beginning. */
export function resumePosition(argv = process.argv): WalkPosition {
  const at = argv.indexOf('--resume');
  return at > 0 ? (JSON.parse(Buffer.from(argv[at + 1] ?? '', 'base64url').toString()) as WalkPosition) : { status: 0 };
}
