/**
 * `npm run bench:cold-start`: each API group's whole cold-start init, as Lambda runs it, for the
 * code of this tree (A) against a baseline build (B, a git ref) built in the same run
 * (docs/lean-builds.md#cold-start). Both trees are synthesized with the stack's own bundling
 * (test/bench/synth-lambdas.ts); then, per function, fresh `node` processes alternate A, B, B, A …
 * Each process gets the function's environment from the template plus what Lambda sets (region,
 * credentials, AWS_LAMBDA_FUNCTION_NAME, LAMBDA_TASK_ROOT, NODE_PATH to an SDK installation the
 * way the runtime provides one) and loads the handler module: the bundle and everything it
 * requires, the SDK included when a bundle leaves it to the runtime. Medians only; the ratio is
 * the median of the pair-by-pair ratios, so a machine whose speed drifts during the run still
 * compares like with like. Nothing is asserted: timings on a shared machine are noise for a test.
 *   COLD_START_BASELINE (git ref, default LAST_RUNTIME_SDK_BUILD)  COLD_START_RUNS (15 pairs)
 *   COLD_START_FUNCTIONS (auth,passkeys,learner,admin)  COLD_START_OUT (a JSON file, optional)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KB, type LambdaBundle, lambdaBundles, REPO_ROOT } from '../helpers/lambda-bundles';

/** The last build that left the AWS SDK to the Lambda runtime and read every client at init. */
export const LAST_RUNTIME_SDK_BUILD = '97691eb';

const env = process.env;
const BASELINE = env.COLD_START_BASELINE ?? LAST_RUNTIME_SDK_BUILD;
const RUNS = Number(env.COLD_START_RUNS ?? 15);
const FUNCTIONS = (env.COLD_START_FUNCTIONS ?? 'auth,passkeys,learner,admin').split(',');

// The child: what the Lambda runtime does at init, loading the handler module, timed from inside
// (the module load) and from the process's own start (Node start-up included).
const CHILD = `
const { performance } = require('node:perf_hooks');
const start = performance.now();
const handler = require(process.argv[1]).handler;
if (typeof handler !== 'function') throw new Error('no handler');
const initMs = performance.now() - start;
const cpu = process.cpuUsage();
process.stdout.write(JSON.stringify({ initMs, processMs: performance.now(), cpuMs: (cpu.user + cpu.system) / 1000 }));
process.exit(0);
`;

interface Run {
  /** Wall ms of loading the handler module (what Lambda's init runs after its own start-up). */
  initMs: number;
  /** Wall ms from the process's start to the handler being loaded. */
  processMs: number;
  /** CPU ms (user + system) of the whole process up to then. */
  cpuMs: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

function build(tree: string, outdir: string): Map<string, LambdaBundle> {
  execFileSync(
    process.execPath,
    [
      path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
      path.join(REPO_ROOT, 'test', 'bench', 'synth-lambdas.ts'),
      tree,
      outdir,
    ],
    {
      cwd: tree,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const ids = JSON.parse(readFileSync(path.join(outdir, 'functions.json'), 'utf8')) as Record<string, string>;
  const byId = new Map(lambdaBundles(outdir, 'BenchStack.template.json').map((bundle) => [bundle.id, bundle]));
  return new Map(FUNCTIONS.map((name) => [name, byId.get(ids[name])!]));
}

/** The baseline's sources, unpacked beside the repository's node_modules (same lock file, same packages). */
function checkout(ref: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['archive', '--format=tar', ref], { cwd: REPO_ROOT, maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

function lambdaEnv(bundle: LambdaBundle, name: string): NodeJS.ProcessEnv {
  return {
    PATH: env.PATH,
    ...bundle.environment,
    AWS_REGION: 'eu-west-1',
    AWS_DEFAULT_REGION: 'eu-west-1',
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    AWS_LAMBDA_FUNCTION_NAME: name,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(bundle.memorySize),
    AWS_ACCESS_KEY_ID: 'AKIACOLDSTARTBENCH',
    AWS_SECRET_ACCESS_KEY: 'cold-start-bench-only',
    AWS_SESSION_TOKEN: 'cold-start-bench-only',
    LAMBDA_TASK_ROOT: bundle.dir,
    // the runtime's SDK: a bundle that leaves @aws-sdk/* external loads it from here
    NODE_PATH: path.join(REPO_ROOT, 'node_modules'),
    NODE_NO_WARNINGS: '1',
  };
}

function coldStart(bundle: LambdaBundle, name: string): Run {
  const child = spawnSync(process.execPath, ['-e', CHILD, path.join(bundle.dir, 'index.js')], {
    cwd: bundle.dir,
    env: lambdaEnv(bundle, name),
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (child.status !== 0) throw new Error(`${name} (${bundle.dir}) exited ${child.status}: ${child.stderr}`);
  return JSON.parse(child.stdout) as Run;
}

interface Compared {
  name: string;
  kb: { a: number; b: number };
  a: Run;
  b: Run;
  /** Median of the pair-by-pair ratios A / B. */
  ratio: Run;
}

function compare(name: string, a: LambdaBundle, b: LambdaBundle): Compared {
  coldStart(a, name); // warm-ups: the file cache
  coldStart(b, name);
  const pairs: Array<{ a: Run; b: Run }> = [];
  for (let run = 0; run < RUNS; run++) {
    // A first in even pairs, B first in odd ones: neither always runs right after the other
    if (run % 2) {
      const runB = coldStart(b, name);
      pairs.push({ a: coldStart(a, name), b: runB });
    } else {
      const runA = coldStart(a, name);
      pairs.push({ a: runA, b: coldStart(b, name) });
    }
  }
  const of = (pick: (run: Run) => number, side: 'a' | 'b') => median(pairs.map((pair) => pick(pair[side])));
  const fields = ['initMs', 'processMs', 'cpuMs'] as const;
  return {
    name,
    kb: { a: a.bundleBytes / KB, b: b.bundleBytes / KB },
    a: Object.fromEntries(fields.map((field) => [field, of((run) => run[field], 'a')])) as unknown as Run,
    b: Object.fromEntries(fields.map((field) => [field, of((run) => run[field], 'b')])) as unknown as Run,
    ratio: Object.fromEntries(fields.map((field) => [field, median(pairs.map((pair) => pair.a[field] / pair.b[field]))])) as unknown as Run,
  };
}

function main() {
  const work = mkdtempSync(path.join(tmpdir(), 'cold-start-'));
  try {
    console.log(`baseline ${BASELINE}: building both trees …`);
    const current = build(REPO_ROOT, path.join(work, 'a.out'));
    const baseline = build(checkout(BASELINE, path.join(work, 'baseline')), path.join(work, 'b.out'));
    const results = FUNCTIONS.map((name) => compare(name, current.get(name)!, baseline.get(name)!));
    console.log(`\n${RUNS} alternating pairs per function, medians (A = this tree, B = ${BASELINE})\n`);
    console.log('| function | index.js A / B | init A / B (wall) | ratio | process start → handler A / B | ratio | CPU A / B | ratio |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const r of results) {
      const ms = (field: keyof Run) => `${r.a[field].toFixed(0)} / ${r.b[field].toFixed(0)} ms | ${r.ratio[field].toFixed(2)}×`;
      console.log(`| ${r.name} | ${r.kb.a.toFixed(1)} / ${r.kb.b.toFixed(1)} KB | ${ms('initMs')} | ${ms('processMs')} | ${ms('cpuMs')} |`);
    }
    if (env.COLD_START_OUT) writeFileSync(env.COLD_START_OUT, JSON.stringify({ baseline: BASELINE, runs: RUNS, results }, null, 2));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
