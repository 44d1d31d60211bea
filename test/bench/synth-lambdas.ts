/**
 * Synthesizes the stack of a source tree (the repository, or an older version of it unpacked
 * elsewhere) with esbuild bundling, into an output directory: what `cdk synth` writes to
 * cdk.out, without building the SPA. Used by test/bench/cold-start.ts:
 * `npx tsx test/bench/synth-lambdas.ts <source tree> <outdir>`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { App } from 'aws-cdk-lib';

const [tree, outdir] = process.argv.slice(2).map((arg) => path.resolve(arg));
if (!tree || !outdir) throw new Error('usage: synth-lambdas.ts <source tree> <outdir>');
const siteDir = path.join(outdir, 'site');
mkdirSync(siteDir, { recursive: true });
writeFileSync(path.join(siteDir, 'index.html'), '<!doctype html><title>bench</title>');
const cdkJson = JSON.parse(readFileSync(path.join(tree, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
const { CareerProgramStack } = (await import(
  pathToFileURL(path.join(tree, 'infra', 'stack.ts')).href
)) as typeof import('../../infra/stack');
const app = new App({ outdir, context: { ...cdkJson.context, 'aws:cdk:enable-asset-metadata': true } });
const stack = new CareerProgramStack(app, 'BenchStack', { siteDir, executeApiEndpoint: true });
app.synth();
// which logical ID is which function: the bench compares functions by name across trees
const ids = Object.fromEntries(
  Object.entries(stack.functions).map(([name, fn]) => [
    name,
    stack.getLogicalId(fn.fn.node.defaultChild as import('aws-cdk-lib').CfnElement),
  ]),
);
writeFileSync(path.join(outdir, 'functions.json'), JSON.stringify(ids, null, 2));
