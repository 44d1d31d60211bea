import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Reads the synthesized Lambda assets of a cloud assembly (cdk.out) and measures them
 * (docs/lean-builds.md). Used by test/infra/lambda-bundles.test.ts, and as a command on any
 * cdk.out: `npx tsx test/helpers/lambda-bundles.ts cdk.out`.
 */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export const KB = 1024;

export interface LambdaBundle {
  /** Logical ID of the AWS::Lambda::Function. */
  id: string;
  dir: string;
  /** Bytes of index.js, the code Node loads at cold start. */
  bundleBytes: number;
  /** Bytes of every file in the asset (index.js and data files such as the password list). */
  assetBytes: number;
  files: string[];
  memorySize: number;
  environment: Record<string, string>;
}

/** The parts of a synthesized resource read here: a Lambda function's asset, memory and environment. */
interface AssetResource {
  Type: string;
  Metadata?: Record<string, string>;
  Properties: { MemorySize: number; Environment?: { Variables: Record<string, unknown> } };
}

/** Our Lambdas in a synthesized template: those whose asset has an index.js bundled from functions/. */
export function lambdaBundles(outdir: string, templateFile: string): LambdaBundle[] {
  const template = JSON.parse(readFileSync(path.join(outdir, templateFile), 'utf8')) as {
    Resources: Record<string, AssetResource>;
  };
  const out: LambdaBundle[] = [];
  for (const [id, resource] of Object.entries(template.Resources)) {
    const assetPath = resource.Metadata?.['aws:asset:path'];
    if (resource.Type !== 'AWS::Lambda::Function' || !assetPath || !resource.Properties.Environment) continue;
    const dir = path.join(outdir, assetPath);
    const files = readdirSync(dir);
    if (!files.includes('index.js')) continue;
    // CloudFormation tokens (Ref, Fn::Join …) become plain placeholders: only their presence matters at import.
    const environment = Object.fromEntries(
      Object.entries(resource.Properties.Environment.Variables).map(([key, value]) => [
        key,
        typeof value === 'string' ? value : `${key.toLowerCase()}-placeholder`,
      ]),
    );
    out.push({
      id,
      dir,
      bundleBytes: statSync(path.join(dir, 'index.js')).size,
      assetBytes: files.reduce((sum, file) => sum + statSync(path.join(dir, file)).size, 0),
      files,
      memorySize: resource.Properties.MemorySize,
      environment,
    });
  }
  return out;
}

/** Packages the bundle leaves to the Lambda runtime (the AWS SDK): `require("@aws-sdk/…")` calls. */
export function runtimeExternals(bundleFile: string): string[] {
  const code = readFileSync(bundleFile, 'utf8');
  return [...new Set([...code.matchAll(/require\("(@aws-sdk\/[^"]+)"\)/g)].map((match) => match[1]))].sort();
}

// In the child: load the runtime's SDK first (timed apart), then the bundle, and report both.
const CHILD = `
const { performance } = require('node:perf_hooks');
const [bundle, ...externals] = JSON.parse(process.argv[1]);
let start = performance.now();
for (const name of externals) {
  try { require(name); } catch (error) { if (error.code !== 'MODULE_NOT_FOUND') throw error; } // optional ones (signature-v4-crt)
}
const sdkMs = performance.now() - start;
start = performance.now();
const cpu = process.cpuUsage();
require(bundle);
const used = process.cpuUsage(cpu);
const bundleMs = performance.now() - start;
process.stdout.write(JSON.stringify({ sdkMs, bundleMs, bundleCpuMs: (used.user + used.system) / 1000 }));
process.exit(0);
`;

export interface ImportTiming {
  runs: number;
  /**
   * Median CPU ms (user + system, all threads of the process) spent in `require(index.js)`,
   * SDK already loaded. What the budget is checked on: on an idle machine it is the wall
   * time; on a shared one the wall time grows with everyone else's load, this does not.
   */
  bundleCpuMs: number;
  /** Median wall ms of `require(index.js)` alone, inside the child, SDK already loaded. */
  bundleMs: number;
  /** Median ms of loading the runtime's SDK packages the bundle requires. */
  sdkMs: number;
  /** Median, over paired runs, of (whole child process) − (`node -e ''`): start-up noise cancels out. */
  processOverBaselineMs: number;
}

/** What one child process writes (CHILD above). */
type ImportTimingRun = Pick<ImportTiming, 'sdkMs' | 'bundleMs' | 'bundleCpuMs'>;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

function timed(args: string[], env: NodeJS.ProcessEnv): { ms: number; stdout: string } {
  const start = process.hrtime.bigint();
  const child = spawnSync(process.execPath, args, { env, encoding: 'utf8', timeout: 30_000 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (child.status !== 0) throw new Error(`node ${args[0]} … exited ${child.status}: ${child.stderr}`);
  return { ms, stdout: child.stdout };
}

/**
 * Imports the bundle in fresh `node` processes with the environment the function gets in
 * Lambda (its template variables, a region, credentials, AWS_LAMBDA_FUNCTION_NAME, and
 * NODE_PATH to the SDK the way the runtime provides it), `runs` times, alternating with a bare
 * `node -e ''`; medians only, so one slow run on a shared machine does not move the figure.
 */
export function measureImport(bundle: LambdaBundle, runs = 7): ImportTiming {
  const bundleFile = path.join(bundle.dir, 'index.js');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    ...bundle.environment,
    AWS_REGION: 'eu-west-1',
    AWS_DEFAULT_REGION: 'eu-west-1',
    AWS_LAMBDA_FUNCTION_NAME: bundle.id,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(bundle.memorySize),
    AWS_ACCESS_KEY_ID: 'AKIAIMPORTTIMING',
    AWS_SECRET_ACCESS_KEY: 'import-timing-only',
    AWS_SESSION_TOKEN: 'import-timing-only',
    LAMBDA_TASK_ROOT: bundle.dir,
    NODE_PATH: path.join(REPO_ROOT, 'node_modules'),
    NODE_NO_WARNINGS: '1',
  };
  const payload = JSON.stringify([bundleFile, ...runtimeExternals(bundleFile)]);
  const inside: ImportTimingRun[] = [];
  const overBaseline: number[] = [];
  timed(['-e', CHILD, payload], env); // warm-up: file cache
  for (let run = 0; run < runs; run++) {
    const measured = timed(['-e', CHILD, payload], env);
    const baseline = timed(['-e', ''], env);
    inside.push(JSON.parse(measured.stdout) as ImportTimingRun);
    overBaseline.push(measured.ms - baseline.ms);
  }
  return {
    runs,
    bundleCpuMs: median(inside.map((r) => r.bundleCpuMs)),
    bundleMs: median(inside.map((r) => r.bundleMs)),
    sdkMs: median(inside.map((r) => r.sdkMs)),
    processOverBaselineMs: median(overBaseline),
  };
}

export function report(bundles: LambdaBundle[], budgetKb: number, runs = 7): string[] {
  return bundles.map((bundle) => {
    const timing = measureImport(bundle, runs);
    return [
      bundle.id.padEnd(28),
      `index.js ${(bundle.bundleBytes / KB).toFixed(1)} KB`,
      `asset ${(bundle.assetBytes / KB).toFixed(1)} KB (headroom ${(budgetKb - bundle.assetBytes / KB).toFixed(1)} KB)`,
      `import ${timing.bundleCpuMs.toFixed(1)} ms CPU (${timing.bundleMs.toFixed(1)} ms wall)`,
      `+ runtime SDK ${timing.sdkMs.toFixed(1)} ms`,
      `process − node -e '' ${timing.processOverBaselineMs.toFixed(1)} ms`,
      `${bundle.memorySize} MB`,
    ].join(' · ');
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outdir = path.resolve(process.argv[2] ?? 'cdk.out');
  const templateFile = readdirSync(outdir).find((file) => file.endsWith('.template.json'))!;
  for (const line of report(lambdaBundles(outdir, templateFile), 250)) console.log(line);
}
