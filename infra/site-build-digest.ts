import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** What the SPA's build reads: its sources, the code it shares with the API, and the dependency set. */
const INPUTS = ['web', 'shared', 'package.json', 'package-lock.json', 'tsconfig.json'];
const SKIPPED = new Set(['dist', 'node_modules']);

function* filesUnder(relative: string): Generator<string> {
  const absolute = path.join(REPO_ROOT, relative);
  if (!existsSync(absolute)) return;
  const entries = readdirSync(absolute, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (SKIPPED.has(entry.name)) continue;
    const child = path.join(relative, entry.name);
    if (entry.isDirectory()) yield* filesUnder(child);
    else if (entry.isFile()) yield child;
  }
}

/** A digest of every input of the SPA's build, the `VITE_*` variables and the output folder included. */
export function siteBuildDigest(outDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const hash = createHash('sha256').update(`out ${outDir}\n`);
  for (const [key, value] of Object.entries(env).sort(([a], [b]) => a.localeCompare(b)))
    if (key.startsWith('VITE_')) hash.update(`env ${key}=${value}\n`);
  for (const input of INPUTS)
    for (const file of path.extname(input) ? [input] : filesUnder(input))
      hash.update(`file ${file}\n`).update(readFileSync(path.join(REPO_ROOT, file)));
  return hash.digest('hex');
}

/** Where the digest of the last build into `outDir` is kept: outside it, so it is never deployed. */
function recordFile(outDir: string): string {
  const name = createHash('sha256').update(outDir).digest('hex').slice(0, 16);
  return path.join(REPO_ROOT, 'node_modules', '.cache', 'site-build', `${name}.digest`);
}

/** True when `outDir` holds a build of exactly these inputs (its index.html still there). */
export function builtFrom(outDir: string, digest: string): boolean {
  const record = recordFile(outDir);
  return existsSync(path.join(outDir, 'index.html')) && existsSync(record) && readFileSync(record, 'utf8') === digest;
}

export function recordBuild(outDir: string, digest: string): void {
  const record = recordFile(outDir);
  mkdirSync(path.dirname(record), { recursive: true });
  writeFileSync(record, digest);
}
