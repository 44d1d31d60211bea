import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TwinIamModel } from './model';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** What the stack's IAM is built from: the CDK app, the shared definitions it reads, the key layout, the CDK version. */
const SOURCES = [
  'infra',
  'shared',
  'functions/lib/table.ts',
  'cdk.json',
  'node_modules/aws-cdk-lib/package.json',
  // how the model is read from the template
  'infra/local/iam/synth-model.ts',
  'infra/local/iam/intrinsics.ts',
];
const NOT_STACK = new Set(['infra/local', 'infra/ops']);

function sourceFiles(relative: string): string[] {
  const full = path.join(REPO_ROOT, relative);
  if (NOT_STACK.has(relative) || !existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [relative];
  return readdirSync(full, { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() || (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) || entry.name.endsWith('.json'),
    )
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => sourceFiles(path.join(relative, entry.name)));
}

/** A digest of every file the stack's IAM depends on: the cached model is reused until one changes. */
export function iamSourceDigest(): string {
  const hash = createHash('sha256');
  for (const file of SOURCES.flatMap(sourceFiles))
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(REPO_ROOT, file)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The twin's IAM model of the current code: read from node_modules/.cache when the stack's
 * sources have not changed since it was built, else synthesized again (a few seconds) and cached.
 */
export async function loadIamModel(log: (line: string) => void = () => undefined): Promise<TwinIamModel> {
  const dir = path.join(REPO_ROOT, 'node_modules', '.cache', 'career-program-iam');
  const file = path.join(dir, `${iamSourceDigest()}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as TwinIamModel;
  log('Reading the IAM roles of the synthesized stack (once per change of infra/)…');
  const { synthesizeIamModel } = await import('./synth-model');
  const model = synthesizeIamModel();
  mkdirSync(dir, { recursive: true });
  // written aside, then moved: parallel starts never read half a file
  const scratch = `${file}.${process.pid}`;
  writeFileSync(scratch, JSON.stringify(model));
  renameSync(scratch, file);
  return model;
}
