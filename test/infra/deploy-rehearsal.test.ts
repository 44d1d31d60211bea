import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStacks } from '../../infra/app-stacks';
import { nagPacks } from '../../infra/nag-packs';
import { ALARM_TOPIC_IDS } from '../../infra/ops/smoke-target';
import { stackNames } from '../../infra/stack-names';
import { type DocCommand, docCommands } from './doc-commands';
import { FILLED_PROD, writeFilledProdFile } from './filled-prod-settings';
import { TEST_API_ORIGIN } from './synth-stack';

/**
 * The deploy, rehearsed without an AWS account. The README's and the runbook's deploy, roll-back
 * and destroy commands are read from the docs and run through the real CDK CLI as `cdk synth`
 * with the same context flags (one synth per distinct set), with a fake account and a main region
 * other than us-east-1: the linked build, every stack and cross-region reference. The settings come
 * from the stage files (infra/stages/), prod's with test values where the repository's has FILL IN
 * (test/infra/filled-prod-settings.ts, given with `-c settingsFile=…`). Each assembly
 * must pass cdk-nag (the CLI runs the app's validation plugins and fails on an error) and
 * cfn-lint; the bootstrap line must name every environment a stack deploys to.
 * What only a real deploy shows is listed in docs/runbook.md "Deploy" (`npm run smoke`).
 */
const ACCOUNT = '123456789012';
const REGION = 'eu-west-1';
const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

const COMMANDS: DocCommand[] = [
  ...docCommands('README.md', '## Deploy to AWS'),
  ...docCommands('docs/runbook.md', '### Deploy'),
  ...docCommands('docs/runbook.md', '### Roll back'),
  ...docCommands('docs/runbook.md', '### Destroy'),
];

interface Rehearsed {
  context: string[];
  /** `--all`: the command selects every stack of the assembly (synth always builds them all). */
  all: boolean;
}

/** What `cdk deploy|destroy …` means for a synth: its context flags; anything else is not rehearsed, so refused. */
function rehearsalOf(command: DocCommand): Rehearsed {
  const [, ...flags] = command.args;
  const context: string[] = [];
  let all = false;
  for (let i = 0; i < flags.length; i++) {
    if (flags[i] === '--all') all = true;
    else if ((flags[i] === '-c' || flags[i] === '--context') && flags[i + 1]?.includes('=')) context.push(flags[++i]);
    else throw new Error(`${command.source}: "${flags[i]}" is not rehearsed (deploy-rehearsal.test.ts knows --all and -c key=value)`);
  }
  return { context: context.sort(), all };
}

interface Assembly {
  dir: string;
  stacks: Array<{ name: string; environment: string; templateFile: string }>;
  validationReport: { pluginReports: Array<{ pluginName: string; violations: unknown[] }> };
  output: string;
  code: number;
}

/** An environment with no AWS credentials and no profile: the CLI cannot reach an account. */
function offlineEnv(siteDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (/^(AWS_|CDK_)/.test(key) && key !== 'AWS_CA_BUNDLE') delete env[key];
  return {
    ...env,
    CDK_DEFAULT_ACCOUNT: ACCOUNT,
    AWS_REGION: REGION,
    AWS_CONFIG_FILE: path.join(siteDir, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: path.join(siteDir, 'no-aws-credentials'),
    AWS_EC2_METADATA_DISABLED: 'true',
    CDK_DISABLE_CLI_TELEMETRY: 'true',
    // the SPA is built apart: the web/dist the end-to-end tests serve stays as it is
    SITE_DIR: siteDir,
    // assets named by their inputs: the synths after the first reuse its Lambda bundles
    REUSE_FUNCTION_BUNDLES: '1',
  };
}

/** The first assembly's assets, copied where the next synth finds them (same inputs, same names: no rebuild). */
function seedAssets(from: string | undefined, outdir: string) {
  if (!from) return;
  for (const name of readdirSync(from))
    if (name.startsWith('asset.')) cpSync(path.join(from, name), path.join(outdir, name), { recursive: true });
}

async function synth(context: string[], outdir: string, env: NodeJS.ProcessEnv, reuseFrom?: string): Promise<Assembly> {
  seedAssets(reuseFrom, outdir);
  const args = ['cdk', 'synth', '--quiet', '--no-notices', ...context.flatMap((value) => ['-c', value]), '-o', outdir];
  let output = '';
  let code = 0;
  try {
    const result = await run('npx', args, { cwd: REPO_ROOT, env, maxBuffer: 64 * 1024 * 1024 });
    output = result.stdout + result.stderr;
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    code = failed.code ?? -1;
    output = `${failed.stdout ?? ''}${failed.stderr ?? ''}`;
  }
  const manifest = JSON.parse(readFileSync(path.join(outdir, 'manifest.json'), 'utf8')) as {
    artifacts: Record<string, { type: string; environment?: string; properties?: { templateFile?: string } }>;
  };
  const stacks = Object.entries(manifest.artifacts)
    .filter(([, artifact]) => artifact.type === 'aws:cloudformation:stack')
    .map(([name, artifact]) => ({ name, environment: artifact.environment!, templateFile: artifact.properties!.templateFile! }));
  const validationReport = JSON.parse(readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as Assembly['validationReport'];
  return { dir: outdir, stacks, validationReport, output, code };
}

interface LintFinding {
  Filename: string;
  Level: string;
  Message: string;
  Rule: { Id: string };
}

/** cfn-lint's findings on the assembly's templates (exit codes 2/4/8 flag errors/warnings/infos: read the JSON). */
async function cfnLint(assembly: Assembly): Promise<LintFinding[]> {
  const templates = assembly.stacks.map((stack) => path.join(assembly.dir, stack.templateFile));
  try {
    const { stdout } = await run('cfn-lint', ['--format', 'json', ...templates], { maxBuffer: 64 * 1024 * 1024 });
    return JSON.parse(stdout || '[]') as LintFinding[];
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string };
    if (failed.code === 'ENOENT')
      throw new Error('cfn-lint is not installed: `pip install cfn-lint==1.51.0` (.ci/run installs it where it can)');
    return JSON.parse(failed.stdout || '[]') as LintFinding[];
  }
}

const work = mkdtempSync(path.join(tmpdir(), 'deploy-rehearsal-'));
const assemblies = new Map<string, Assembly>();
const keyOf = (context: string[]) => context.join(' ');
const synthCommands = COMMANDS.filter((command) => command.args[0] !== 'bootstrap');
const lint = new Map<string, LintFinding[]>();
const stageOf = (context: string[]) => context.find((value) => value.startsWith('stage='))?.slice('stage='.length) ?? 'prod';
/** prod's settings file with test values where the repository's has FILL IN; dev's is used as it is. */
const prodSettingsFile = writeFilledProdFile(work);
const settingsFlags = (context: string[]) => (stageOf(context) === 'prod' ? [`settingsFile=${prodSettingsFile}`] : []);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the deploy rehearsal', () => {
  beforeAll(async () => {
    const env = offlineEnv(path.join(work, 'site'));
    // One synth per distinct set of flags, in turn (two cores are shared); the first bundles every Lambda.
    for (const command of synthCommands) {
      const { context } = rehearsalOf(command);
      if (assemblies.has(keyOf(context))) continue;
      const first = [...assemblies.values()][0]?.dir;
      const outdir = path.join(work, `assembly-${assemblies.size}`);
      assemblies.set(keyOf(context), await synth([...context, ...settingsFlags(context)], outdir, env, first));
    }
    await Promise.all([...assemblies].map(async ([key, assembly]) => lint.set(key, await cfnLint(assembly))));
  }, 900_000);

  it('reads the deploy, roll-back and destroy commands of the README and the runbook', () => {
    const sources = (verb: string) => COMMANDS.filter((c) => c.args[0] === verb).map((c) => c.source);
    expect(sources('bootstrap')).toEqual(['README.md "Deploy to AWS"', 'docs/runbook.md "Deploy"']);
    expect(sources('deploy')).toEqual(['README.md "Deploy to AWS"', 'docs/runbook.md "Deploy"', 'docs/runbook.md "Roll back"']);
    expect(sources('destroy')).toEqual(['docs/runbook.md "Destroy"']);
  });

  it.each(synthCommands.map((c) => [`${c.source}: cdk ${c.args.join(' ')}`, c] as const))(
    '%s synthesizes every stack, linked across regions, and passes cdk-nag',
    (_, command) => {
      const { context, all } = rehearsalOf(command);
      // The app has several stacks: without --all (or stack names) the CLI refuses to deploy or destroy.
      expect(all, 'the command needs --all').toBe(true);
      const assembly = assemblies.get(keyOf(context))!;
      expect(assembly.code, assembly.output).toBe(0);
      const names = stackNames(stageOf(context));
      expect(Object.fromEntries(assembly.stacks.map((s) => [s.name, s.environment]))).toEqual({
        [names.edge]: `aws://${ACCOUNT}/us-east-1`,
        [names.main]: `aws://${ACCOUNT}/${REGION}`,
        [names.edgeLogs]: `aws://${ACCOUNT}/us-east-1`,
      });
      expect(assembly.validationReport.pluginReports.flatMap((report) => report.violations)).toEqual([]);
      // a destroy never selects prod, whose stacks keep the learners' data
      if (command.args[0] === 'destroy') for (const s of assembly.stacks) expect(Object.values(stackNames('prod'))).not.toContain(s.name);
    },
  );

  it.each(synthCommands.map((c) => [`${c.source}: cdk ${c.args.join(' ')}`, c] as const))(
    '%s prints the settings it synthesized from, from its stage file',
    (_, command) => {
      const { context } = rehearsalOf(command);
      const stage = stageOf(context);
      const { output } = assemblies.get(keyOf(context))!;
      const file = stage === 'prod' ? prodSettingsFile : `infra/stages/${stage}.ts`;
      expect(output).toContain(`Stage ${stage}: settings from ${file}, [-c] overridden for this deploy`);
      // each filled value, as the report prints it: name, value, where from
      const rows = output.split('\n').map((line) => line.trim().split(/\s+/));
      if (stage === 'prod')
        for (const [name, value] of Object.entries(FILLED_PROD))
          expect(rows).toContainEqual([name, value === null ? '(none)' : String(value), '[file]']);
    },
  );

  it('bundles each Lambda once: the synths after the first reuse its bundles', () => {
    const bundled = [...assemblies.values()].map((assembly) => assembly.output.match(/Bundling asset \S+\/Function\//g)?.length ?? 0);
    expect(bundled[0]).toBeGreaterThan(0);
    expect(bundled.slice(1)).toEqual(bundled.slice(1).map(() => 0));
  });

  it('cfn-lint finds no error in any template', () => {
    for (const [key, findings] of lint) {
      const errors = findings.filter((f) => f.Level === 'Error').map((f) => `${path.basename(f.Filename)} ${f.Rule.Id}: ${f.Message}`);
      expect(errors, `cfn-lint, flags "${key}"`).toEqual([]);
    }
  });

  it('the bootstrap lines name every environment a stack deploys to', () => {
    const deployed = new Set([...assemblies.values()].flatMap((a) => a.stacks.map((s) => s.environment)));
    for (const command of COMMANDS.filter((c) => c.args[0] === 'bootstrap')) {
      const environments = command.args.slice(1).map((arg) => arg.replace('ACCOUNT', ACCOUNT).replace('REGION', REGION));
      expect(new Set(environments), command.source).toEqual(deployed);
    }
  });

  it('holds the alarm topics where the smoke script looks for them', () => {
    const assembly = [...assemblies.values()][0];
    const template = (name: string) =>
      JSON.parse(readFileSync(path.join(assembly.dir, assembly.stacks.find((s) => s.name === name)!.templateFile), 'utf8')) as {
        Resources: Record<string, { Type: string }>;
      };
    const topics = (name: string, prefix: string) =>
      Object.entries(template(name).Resources).filter(([id, r]) => r.Type === 'AWS::SNS::Topic' && id.startsWith(prefix));
    // a page and a ticket topic in each (docs/runbook.md#severities)
    expect(topics(stackNames().main, ALARM_TOPIC_IDS.main)).toHaveLength(2);
    expect(topics(stackNames().edge, ALARM_TOPIC_IDS.edge)).toHaveLength(2);
  });
});

describe("the app's cdk-nag packs, on the linked build of each stage", () => {
  it.each(['prod', 'dev'] as const)('%s: AwsSolutions and Serverless report nothing, warnings included', (stage) => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const siteDir = mkdtempSync(path.join(work, 'site-'));
    writeFileSync(path.join(siteDir, 'index.html'), '<!doctype html><title>test</title>');
    // every optional part on: alarm emails, a domain identity (DKIM outputs), the API's own domain behind mutual TLS
    const props = {
      stage,
      siteDir,
      alarmEmail: 'ops@example.org',
      sesDomain: 'example.org',
      mailFrom: 'hello@example.org',
      apiCustomDomain: TEST_API_ORIGIN,
    };
    const stacks = buildStacks(app, { account: ACCOUNT, region: REGION, props });
    const packs = nagPacks();
    expect(packs.map((pack) => pack.readPackName)).toEqual(['AwsSolutions', 'Serverless']);
    for (const stack of [stacks.edge, stacks.main, stacks.logs!])
      for (const pack of packs) {
        const report = pack.validateScope(stack);
        expect(
          report.violations.map((v) => `${stack.stackName} ${v.ruleName} ${v.violatingResources.map((r) => r.constructPath).join(', ')}`),
        ).toEqual([]);
      }
  });
});
