import { createHash, type Hash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
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

/**
 * Adds every file of `inputs` (repository paths: folders walked in name order, build output and
 * node_modules skipped; a path with an extension is one file) to `hash`, names and contents.
 */
export function hashInputs(hash: Hash, inputs: readonly string[]): Hash {
  for (const input of inputs)
    for (const file of path.extname(input) ? [input] : filesUnder(input))
      hash.update(`file ${file}\n`).update(readFileSync(path.join(REPO_ROOT, file)));
  return hash;
}

/** What a Lambda bundle is built from: the code, what it shares with the SPA, the dependency set. */
const FUNCTION_INPUTS = ['functions', 'shared', 'package.json', 'package-lock.json', 'tsconfig.json'];

let functionDigest: string | undefined;
/** A digest of every input of the Lambda bundles, computed once per process. */
export function functionInputsDigest(): string {
  functionDigest ??= hashInputs(createHash('sha256'), FUNCTION_INPUTS).digest('hex');
  return functionDigest;
}
