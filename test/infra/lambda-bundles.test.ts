import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { App } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MEMORY_MB, LAZY_CHUNKS } from '../../infra/constructs/app-function';
import { CareerProgramStack } from '../../infra/stack';
import { KB, type LambdaBundle, lambdaBundles, REPO_ROOT, runtimeExternals } from '../helpers/lambda-bundles';
import { TEST_API_ORIGIN } from './synth-stack';

/**
 * The Lambda bundles as deployed: the real stack synthesized with esbuild bundling (what
 * `cdk synth` writes to cdk.out), then each product bundle's size and what it carries. Cold-start
 * time is measured by `npm run bench:cold-start` against an older build in the same run, not
 * asserted here: a timing on a shared machine is noise (docs/lean-builds.md explains every figure).
 * The figures are printed so features that add dependencies can see the headroom left.
 *
 * The budget follows from the cold start: index.js carries the AWS SDK clients every request
 * uses (DynamoDB, Secrets Manager), bundled and tree-shaken, which loads in ~0.5× the time of a
 * smaller bundle that leaves the SDK to the runtime (docs/lean-builds.md#cold-start). The clients
 * only some requests use are files of their own beside it (LAZY_CHUNKS), loaded on first use.
 */
const BUDGET_KB = 650;
const CHUNK_BUDGET_KB = 450;
const PINNED_SDK = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> })
  .dependencies['@aws-sdk/client-dynamodb'];
const PRODUCT = ['auth', 'passkeys', 'learner', 'admin', 'reminders', 'seed', 'mailEvents'] as const;
/**
 * The passkeys function carries @simplewebauthn/server whole, its attestation-certificate parsers
 * (ASN.1, X.509: ~256 KB) included: only the passkey routes load it (docs/lean-builds.md). The
 * admin function carries the purge's start and the erasure's scrubs (audit text, the program's
 * authors) beside the console's routes; its cold starts meet administrators, never a learner.
 */
const BUDGETS_KB: Partial<Record<(typeof PRODUCT)[number], number>> = { passkeys: 950, admin: 700 };

let bundles: Record<(typeof PRODUCT)[number], LambdaBundle>;
let outdir: string;
let siteDir: string;
afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
  rmSync(siteDir, { recursive: true, force: true });
});
beforeAll(() => {
  outdir = mkdtempSync(path.join(tmpdir(), 'lambda-bundles-'));
  siteDir = mkdtempSync(path.join(tmpdir(), 'site-'));
  writeFileSync(path.join(siteDir, 'index.html'), '<!doctype html><title>test</title>');
  const cdkJson = JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  // asset metadata on: the CLI sets it, and it names each function's asset directory
  const app = new App({ outdir, context: { ...cdkJson.context, 'aws:cdk:enable-asset-metadata': true } });
  const stack = new CareerProgramStack(app, 'BundleStack', { siteDir, apiCustomDomain: TEST_API_ORIGIN });
  app.synth();
  const byId = new Map(lambdaBundles(outdir, 'BundleStack.template.json').map((bundle) => [bundle.id, bundle]));
  bundles = Object.fromEntries(
    PRODUCT.map((name) => [name, byId.get(stack.getLogicalId(stack.functions[name].fn.node.defaultChild as CfnFunction))!]),
  ) as typeof bundles;
}, 240_000);

describe('Lambda bundles', () => {
  it(`are each ≤ ${BUDGET_KB} KB minified, the AWS SDK included (passkeys ≤ ${BUDGETS_KB.passkeys} KB, admin ≤ ${BUDGETS_KB.admin} KB), without source maps`, () => {
    for (const name of PRODUCT) {
      const bundle = bundles[name];
      const budget = BUDGETS_KB[name] ?? BUDGET_KB;
      console.log(
        `${name.padEnd(9)} index.js ${(bundle.bundleBytes / KB).toFixed(1)} KB (headroom ${(budget - bundle.bundleBytes / KB).toFixed(1)} KB), ` +
          `asset ${(bundle.assetBytes / KB).toFixed(1)} KB: ${bundle.files.join(', ')}`,
      );
      expect(bundle.bundleBytes / KB, `${name} bundle`).toBeLessThanOrEqual(budget);
      expect(
        bundle.files.filter((file) => file.endsWith('.map')),
        name,
      ).toEqual([]);
      expect(bundle.environment.NODE_OPTIONS ?? '', name).not.toContain('source-maps');
    }
  });

  it('carry the compact password list instead of the zxcvbn dictionary, and the AWS SDK the tests ran', () => {
    for (const name of PRODUCT) {
      const bundle = bundles[name];
      const code = readFileSync(path.join(bundle.dir, 'index.js'), 'utf8');
      expect(bundle.files, name).toContain('common-passwords.br');
      expect(code, name).not.toContain('@zxcvbn-ts');
      // the local IAM twin and its evaluator are for the local runtime and tests only (AGPL, docs/architecture.md)
      expect(code, name).not.toContain('iam-simulate');
      expect(code, name).not.toContain('assumed-role/');
      // the SDK is bundled at the pinned version (package-lock.json), never taken from the runtime
      // (signature-v4-crt is an optional require in a try: SigV4a only, which no call of ours signs)
      expect(
        runtimeExternals(path.join(bundle.dir, 'index.js')).filter((name) => name !== '@aws-sdk/signature-v4-crt'),
        name,
      ).toEqual([]);
      const versions = [...code.matchAll(/name:"(@aws-sdk\/client-[a-z0-9-]+)",version:"([^"]+)"/g)].map((match) => match[2]);
      expect(versions.length, name).toBeGreaterThan(0);
      expect(new Set(versions), name).toEqual(new Set([PINNED_SDK]));
    }
    // GET /api/openapi.json reads the pre-generated document beside index.js; the response
    // schemas and the generator stay out of every bundle (docs/api.md#6-the-openapi-document)
    expect(bundles.auth.files).toContain('openapi.json');
    for (const name of PRODUCT) {
      const code = readFileSync(path.join(bundles[name].dir, 'index.js'), 'utf8');
      expect(code, name).not.toContain('no success response schema in'); // functions/api-docs/openapi.ts
      expect(code, name).not.toContain('Readiness: 200 once the database'); // shared/api-schemas/auth.ts
    }
    // Lambda code validates with zod/mini (~25 KB bundled, against ~95 KB for classic zod even as a
    // namespace import): classic zod may appear in tests only (docs/lean-builds.md)
    const classic = readdirSync(path.join(REPO_ROOT, 'functions'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .filter((file) => /from 'zod'/.test(readFileSync(path.join(REPO_ROOT, 'functions', file), 'utf8')));
    expect(classic, "use `import * as z from 'zod/mini'`").toEqual([]);
  });

  it('keep the SES, SSM, SQS and S3 clients out of index.js, in files of their own that load on first use', async () => {
    for (const name of PRODUCT) {
      const bundle = bundles[name];
      const code = readFileSync(path.join(bundle.dir, 'index.js'), 'utf8');
      for (const client of ['client-sesv2', 'client-ssm', 'client-sqs', 'client-s3'])
        expect(code, `${name} ${client}`).not.toContain(`name:"@aws-sdk/${client}"`);
      expect(code, name).toContain('name:"@aws-sdk/client-dynamodb"');
      for (const chunk of LAZY_CHUNKS) {
        const bytes = statSync(path.join(bundle.dir, `${chunk}.js`)).size;
        expect(bytes / KB, `${name} ${chunk}.js`).toBeLessThanOrEqual(CHUNK_BUDGET_KB);
      }
    }
    // the code imports each chunk by this name, relative to index.js
    const auth = readFileSync(path.join(bundles.auth.dir, 'index.js'), 'utf8');
    for (const chunk of ['ses-client', 'ssm-provider']) expect(auth).toContain(`import("./${chunk}.js")`);
    const learner = readFileSync(path.join(bundles.learner.dir, 'index.js'), 'utf8');
    expect(learner).toContain('import("./s3-client.js")');
    const exports = await Promise.all(LAZY_CHUNKS.map((chunk) => import(pathToFileURL(path.join(bundles.admin.dir, `${chunk}.js`)).href)));
    expect(
      exports.map((module: Record<string, unknown>) =>
        Object.keys(module)
          .filter((key) => !['default', '__esModule'].includes(key))
          .sort(),
      ),
    ).toEqual([
      ['GetAccountCommand', 'SendEmailCommand', 'createSesClient'],
      ['createSsmProvider'],
      ['SQSClient', 'SendMessageBatchCommand', 'SendMessageCommand'],
      ['GetObjectCommand', 'PutObjectCommand', 'S3Client', 'getSignedUrl'],
    ]);
  });

  it('the bundled auth handler refuses a common password with the list beside index.js', () => {
    // A real request through the bundle, local-stage env (no AWS): the password check runs before any database call.
    const event = {
      version: '2.0',
      routeKey: 'POST /api/auth/register',
      rawPath: '/api/auth/register',
      rawQueryString: '',
      headers: { 'content-type': 'application/json', 'user-agent': 'bundle-test' },
      body: JSON.stringify({
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        password: 'sunshine1',
        passwordConfirm: 'sunshine1',
      }),
      isBase64Encoded: false,
      requestContext: {
        http: { method: 'POST', path: '/api/auth/register', sourceIp: '203.0.113.9', userAgent: 'bundle-test' },
        requestId: 'r-1',
        routeKey: 'POST /api/auth/register',
      },
    };
    const response = invokeBundledAuth(event, 'a-1');
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ error: 'common_password' });
  });

  it('the bundled auth handler serves GET /api/openapi.json from the file beside index.js', () => {
    const event = {
      version: '2.0',
      routeKey: 'GET /api/openapi.json',
      rawPath: '/api/openapi.json',
      rawQueryString: '',
      headers: { 'user-agent': 'bundle-test' },
      isBase64Encoded: false,
      requestContext: {
        http: { method: 'GET', path: '/api/openapi.json', sourceIp: '203.0.113.9', userAgent: 'bundle-test' },
        requestId: 'r-2',
        routeKey: 'GET /api/openapi.json',
      },
    };
    const response = invokeBundledAuth(event, 'a-2');
    expect(response.statusCode).toBe(200);
    const served = JSON.parse(response.body) as { openapi: string; paths: Record<string, unknown> };
    expect(served.openapi).toBe('3.1.0');
    expect(Object.keys(served.paths)).toContain('/api/admin/users/{id}');
  });

  it('gives the functions that check passwords on their main path (auth; passkeys re-asks it) one full vCPU for scrypt (1,769 MB), the others the 1,024 MB default', () => {
    expect(bundles.auth.memorySize).toBe(AUTH_MEMORY_MB);
    expect(bundles.passkeys.memorySize).toBe(AUTH_MEMORY_MB);
    expect(AUTH_MEMORY_MB).toBe(1769);
    for (const name of PRODUCT.filter((n) => n !== 'auth' && n !== 'passkeys')) expect(bundles[name].memorySize, name).toBe(1024);
  });
});

/** Runs the synthesized auth bundle's handler on one API event in a fresh `node`, as Lambda would. */
function invokeBundledAuth(event: unknown, requestId: string): { statusCode: number; body: string } {
  const script = `require(${JSON.stringify(path.join(bundles.auth.dir, 'index.js'))}).handler(${JSON.stringify(event)}, { functionName: 'auth', awsRequestId: '${requestId}', getRemainingTimeInMillis: () => 30000 }).then((r) => process.stdout.write(JSON.stringify(r)))`;
  const child = spawnSync(process.execPath, ['-e', script], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      NODE_NO_WARNINGS: '1',
      STAGE: 'local',
      SESSION_SECRET: 'bundle-test-secret-bundle-test-secret',
      APP_URL: 'http://localhost:3000',
      LOG_LEVEL: 'SILENT',
    },
  });
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout) as { statusCode: number; body: string };
}
