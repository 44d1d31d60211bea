import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BundlingOptions, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { buildSync, type BuildOptions } from 'esbuild';
import { functionInputsDigest } from '../inputs-digest';

/**
 * How every Lambda function is bundled (infra/constructs/app-function.ts uses it): esbuild's
 * options, the lazily loaded client chunks built once beside them, and the asset naming that
 * lets a rehearsal reuse bundles.
 */

/** Repository root: NodejsFunction resolves entries and the lock file from here. */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Modules of functions/lib that the code imports on first use (`import('./ses-client.js')`): the
 * SES, SSM, SQS and S3 clients, which only some requests need. Each is bundled into a file of its own
 * beside index.js, so a cold start neither loads nor parses them (docs/lean-builds.md#cold-start).
 */
export const LAZY_CHUNKS = ['ses-client', 'ssm-provider', 'sqs-client', 's3-client'] as const;

/**
 * esbuild's options, in its own words, for code built outside NodejsFunction that must match the
 * functions' bundles (LEAN_BUNDLING): the lazy chunks below, the site's asset cleanup.
 */
export const LEAN_ESBUILD = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  minify: true,
  keepNames: true,
  mainFields: ['module', 'main'],
  logLevel: 'warning',
} as const satisfies BuildOptions;

let chunkDir: string | undefined;
/**
 * The lazy chunks are the same for every function: built once (with index.js's options), then
 * copied into each asset. They are kept in a folder named by the digest of the functions' inputs,
 * so the bundling command that names it is the same in every synth of the same code.
 */
function lazyChunkDir(): string {
  if (chunkDir) return chunkDir;
  const dir = path.join(REPO_ROOT, 'node_modules', '.cache', 'lazy-chunks', functionInputsDigest().slice(0, 16));
  if (!LAZY_CHUNKS.every((name) => existsSync(path.join(dir, `${name}.js`)))) {
    mkdirSync(path.dirname(dir), { recursive: true });
    // built aside, then moved in whole: a synth running at the same time never sees half a folder
    const building = mkdtempSync(`${dir}-building-`);
    buildSync({
      entryPoints: LAZY_CHUNKS.map((name) => path.join(REPO_ROOT, 'functions', 'lib', `${name}.ts`)),
      outdir: building,
      ...LEAN_ESBUILD,
      mainFields: [...LEAN_ESBUILD.mainFields],
    });
    rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(building, dir);
    } catch {
      rmSync(building, { recursive: true, force: true }); // another synth moved the same build in first
    }
  }
  chunkDir = dir;
  return dir;
}

/**
 * What esbuild does to every function (docs/lean-builds.md has the figures and the reasons):
 * minified, ESM sources preferred (`module` before `main`: better tree-shaking), no source maps
 * (`--enable-source-maps` parses megabytes of map at start-up and slows every stack trace; the
 * names esbuild keeps are enough to read a trace), and the AWS SDK bundled and tree-shaken with
 * the rest: a cold start then loads one file instead of whole SDK packages from the runtime's
 * disk (~0.6× the init time, docs/lean-builds.md#cold-start), and the SDK that runs in Lambda is
 * the version the tests ran (package-lock.json), not the runtime's. Exported for the bundle test
 * (test/infra/lambda-bundles.test.ts).
 */
export const LEAN_BUNDLING = {
  forceDockerBundling: false, // esbuild from node_modules: synth needs no Docker
  format: OutputFormat.CJS,
  target: LEAN_ESBUILD.target,
  minify: LEAN_ESBUILD.minify,
  keepNames: LEAN_ESBUILD.keepNames,
  sourceMap: false,
  mainFields: [...LEAN_ESBUILD.mainFields],
  bundleAwsSDK: true,
  externalModules: LAZY_CHUNKS.map((name) => `./${name}.js`),
  // Data files read at run time sit beside index.js (functions/accounts/passwords.ts).
  define: { 'import.meta.dirname': '__dirname' },
  commandHooks: {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir: string, outputDir: string) => [
      `cp "${path.join(inputDir, 'functions', 'accounts', 'common-passwords.br')}" "${outputDir}"`,
      // served by GET /api/openapi.json (functions/api-docs/openapi-route.ts)
      `cp "${path.join(inputDir, 'functions', 'api-docs', 'openapi.json')}" "${outputDir}"`,
      ...LAZY_CHUNKS.map((name) => `cp "${path.join(lazyChunkDir(), `${name}.js`)}" "${outputDir}"`),
    ],
  },
} satisfies BundlingOptions;

/**
 * With REUSE_FUNCTION_BUNDLES=1 (set by the deploy rehearsal test, which synthesizes the app once
 * per documented command) an asset is named by a digest of everything its bundle is built from,
 * so a synth into a folder that already holds that asset skips esbuild. Without it (every real
 * synth and deploy) CDK names the asset by the bundle itself, so a deploy updates only the
 * functions whose bundle changed.
 */
export function reusableBundle(entry: string): Pick<BundlingOptions, 'assetHash'> {
  return process.env.REUSE_FUNCTION_BUNDLES === '1' ? { assetHash: `${functionInputsDigest()}:${entry}` } : {};
}
