import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalExportStore } from '../../functions/lib/export-objects';
import { jsonAnswer, type OriginAnswer } from './origin-answer';

/** Where the local server serves export files (the cloud's presigned S3 link). */
export const LOCAL_EXPORT_PATH = '/__local/exports/';

interface HeldFile {
  file: string;
  fileName: string;
  expiresAt: number;
}

/**
 * The local stand-in for the export bucket (functions/lib/export-objects.ts): each export is a
 * file in a temporary folder behind an unguessable address that answers once, until the link's
 * expiry, and is deleted when served or found expired — as the cloud's object lives a day at
 * most and its link minutes.
 */
export function createLocalExportFiles(now: () => number = Date.now) {
  let dir: Promise<string> | undefined;
  const held = new Map<string, HeldFile>();
  const drop = async (token: string) => {
    const entry = held.get(token);
    held.delete(token);
    if (entry) await rm(entry.file, { force: true });
  };

  const store: LocalExportStore = {
    async put(_key, body, fileName, expiresAt) {
      for (const [token, entry] of held) if (entry.expiresAt <= now()) await drop(token);
      dir ??= mkdtemp(join(tmpdir(), 'career-program-exports-'));
      const token = randomBytes(24).toString('base64url');
      const file = join(await dir, token);
      await writeFile(file, body, { mode: 0o600 });
      held.set(token, { file, fileName, expiresAt: expiresAt.getTime() });
      return `${LOCAL_EXPORT_PATH}${token}`;
    },
  };

  /** The answer to a GET of `pathname` (under LOCAL_EXPORT_PATH): the file the first time, then 404. */
  async function serveOnce(pathname: string): Promise<OriginAnswer> {
    const token = pathname.slice(LOCAL_EXPORT_PATH.length);
    const entry = held.get(token);
    if (!entry || entry.expiresAt <= now()) {
      await drop(token);
      return jsonAnswer(404, { error: 'not_found' });
    }
    const body = await readFile(entry.file);
    await drop(token);
    return {
      status: 200,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-disposition': `attachment; filename="${entry.fileName}"`,
        'cache-control': 'no-store',
      },
      body,
    };
  }

  return { store, serveOnce };
}
