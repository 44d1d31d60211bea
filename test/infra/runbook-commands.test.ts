import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { reminderRunHour } from '../../functions/jobs/reminder-run-hour';
import { buildStacks } from '../../infra/app-stacks';
import { COUNTED_MANAGED_RULE_GROUPS, edgeMetricNames } from '../../infra/edge-stack';
import { migrationSteps } from '../../infra/ops/migration-steps';
import { stackNames } from '../../infra/stack-names';
import { METRIC, METRICS_NAMESPACE } from '../../shared/metric-names';
import { TEST_API_ORIGIN } from './synth-stack';
import { resourcesOf } from './template';
import { SETTINGS } from '../../infra/stages/stage-file';

/**
 * docs/runbook.md is run by hand at the worst moment: what it tells the operator to type must be
 * what the code takes. Every `npm run` script it names exists and takes the flags it passes;
 * every `-c` setting is one the app reads; every field its Logs Insights queries read is logged by
 * the code; every alarm, metric, resource and output it names in `code` exists in the
 * synthesized stacks (or is an AWS name the test lists); the reminders rerun's payload is one the
 * job accepts. (The messages the queries filter on: test/unit/runbook-log-messages.test.ts; the
 * deploy commands: deploy-rehearsal.test.ts.)
 */
const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const RUNBOOK = readFileSync(path.join(REPO_ROOT, 'docs/runbook.md'), 'utf8');
const PACKAGE = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

/** The runbook's fenced blocks, `\` continuations joined. */
const BLOCKS = [...RUNBOOK.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)].map((m) => m[1].replace(/\\\n\s*/g, ' '));
const QUERY_BLOCKS = BLOCKS.filter((block) => /^(fields|filter|stats|sort|parse)\b/.test(block));

/** Every `npm run <script> [-- args]` of the runbook, in code blocks and in inline code. */
function npmCommands(): Array<{ script: string; args: string[] }> {
  const lines = [...BLOCKS.flatMap((block) => block.split('\n')), ...[...RUNBOOK.matchAll(/`([^`\n]*npm run [^`\n]*)`/g)].map((m) => m[1])];
  return lines.flatMap((line) =>
    [...line.replace(/(^|\s)#.*$/, '').matchAll(/npm run ([\w:-]+)((?: -- [^|;&]*)?)/g)].map((m) => ({
      script: m[1],
      args: m[2].replace(/^ -- /, '').trim().split(/\s+/).filter(Boolean),
    })),
  );
}

/** The TypeScript sources a script runs: its entry (`tsx <file>`) and the local modules it imports, recursively. */
function scriptSources(script: string): string {
  const entry = /\btsx (\S+\.ts)/.exec(PACKAGE.scripts[script])?.[1];
  if (!entry) return '';
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !existsSync(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)) visit(path.resolve(path.dirname(file), `${m[1]}.ts`));
  };
  visit(path.join(REPO_ROOT, entry));
  return [...seen].map((file) => readFileSync(file, 'utf8')).join('\n');
}

/** Whether a tool's sources read `--name`: the literal flag, or its name as a parseArgs option or a `--${name}` helper's argument. */
const readsFlag = (sources: string, flag: string) => {
  const name = flag.slice(2);
  return [`'${flag}'`, `"${flag}"`, `\`${flag}\``, `'${name}'`, `"${name}"`, ` ${name}: {`].some((form) => sources.includes(form));
};

/** The source files of a directory tree, tests left out. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}
const FUNCTION_SOURCES = sourceFiles(path.join(REPO_ROOT, 'functions'))
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n');
const INFRA_SOURCES = sourceFiles(path.join(REPO_ROOT, 'infra'))
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n');

const siteDir = mkdtempSync(path.join(tmpdir(), 'site-'));
writeFileSync(path.join(siteDir, 'index.html'), '<!doctype html><title>test</title>');
const stacks = buildStacks(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), {
  account: '123456789012',
  region: 'eu-west-1',
  props: { siteDir, apiCustomDomain: TEST_API_ORIGIN, alarmEmail: 'ops@example.com' },
});
const templates = [stacks.main, stacks.edge, stacks.logs!].map((stack) => Template.fromStack(stack).toJSON() as Record<string, unknown>);

describe('the runbook’s commands', () => {
  const commands = npmCommands();

  it('name npm scripts that exist', () => {
    expect(commands.length).toBeGreaterThan(15);
    const missing = [...new Set(commands.map((c) => c.script))].filter((script) => !PACKAGE.scripts[script]);
    expect(missing).toEqual([]);
  });

  it('pass only flags their tool reads', () => {
    const unread: string[] = [];
    for (const { script, args } of commands) {
      const sources = scriptSources(script);
      for (const flag of args.filter((arg) => arg.startsWith('--')))
        if (!readsFlag(sources, flag)) unread.push(`npm run ${script} -- ${flag}`);
    }
    expect(commands.some((c) => c.args.includes('--restore-point') || c.args.includes('--from'))).toBe(true);
    expect(unread).toEqual([]);
  });

  it('rerun data migrations by names that exist', () => {
    const names = migrationSteps.map((step) => step.name);
    const again = commands.flatMap(({ script, args }) =>
      script === 'migrate' ? args.flatMap((arg, i) => (args[i - 1] === '--again' && !arg.startsWith('<') ? [arg] : [])) : [],
    );
    expect(again.length).toBeGreaterThan(0);
    for (const name of again) expect(names, name).toContain(name);
  });

  it('set only deploy settings (-c key=value) the app reads', () => {
    const keys = [...new Set([...RUNBOOK.matchAll(/-c ([A-Za-z]+)=/g)].map((m) => m[1]))];
    expect(keys.length).toBeGreaterThan(10);
    // a -c flag overrides the stage file's setting of that name (infra/stages/stage-file.ts); settingsFile picks the file
    expect(keys.filter((key) => !(key in SETTINGS) && key !== 'stage' && key !== 'settingsFile')).toEqual([]);
  });

  it('rerun the reminders with a payload the job accepts, naming the hour it reruns', () => {
    const payloads = BLOCKS.flatMap((block) => [...block.matchAll(/<reminders function>.*--payload '([^']+)'/g)].map((m) => m[1]));
    expect(payloads.length).toBeGreaterThan(0);
    for (const payload of payloads) {
      const event = JSON.parse(payload) as { hour: string };
      // run an hour after the named hour began, as an operator would
      const run = reminderRunHour(event, new Date(Date.parse(`${event.hour}:00:00Z`) + 3600 * 1000));
      expect(run, payload).toMatchObject({ ok: true });
    }
  });
});

describe('the runbook’s Logs Insights queries', () => {
  /** Fields Powertools Logger writes on every line (the API access log's are keys of its format in infra/). */
  const BUILT_IN = new Set(['level', 'message', 'service', 'request_id', 'error', 'timestamp', 'xray_trace_id']);

  /** The fields a query reads: its `fields`, the left side of its comparisons, its `by`. */
  const fieldsOf = (query: string): string[] => {
    const found = new Set<string>();
    for (const line of query.split('\n')) {
      const listed = /^\|?\s*fields\s+(.*)$/.exec(line);
      if (listed) for (const field of listed[1].split(',')) found.add(field.trim().split(/\s+/)[0]);
      for (const m of line.matchAll(/(?:filter|and|or)\s+([a-z_][\w.]*)\s*(?:=|!=|like|in\b|>|<)/g)) found.add(m[1]);
      const by = /\bby\s+(.*)$/.exec(line);
      if (by) for (const field of by[1].split(',')) if (!field.includes('(')) found.add(field.trim());
    }
    return [...found].filter((field) => !field.startsWith('@'));
  };
  /** Whether the code writes a field into a log line or the API's access log: as an object key or a shorthand property. */
  const logged = (field: string) => {
    const root = field.split('.')[0];
    if (BUILT_IN.has(root)) return true;
    const key = new RegExp(`(^|[\\s{,])['"]?${root}['"]?\\s*:|[{,]\\s*${root}\\s*[,}]`, 'm');
    return key.test(FUNCTION_SOURCES) || key.test(INFRA_SOURCES);
  };

  it('read only fields the code logs', () => {
    expect(QUERY_BLOCKS.length).toBeGreaterThan(15);
    const fields = [...new Set(QUERY_BLOCKS.flatMap(fieldsOf))];
    expect(fields).toEqual(expect.arrayContaining(['run_hour', 'user_id', 'consumed_capacity.read', 'routeKey']));
    expect(fields.filter((field) => !logged(field))).toEqual([]);
  });
});

describe('the names the runbook gives in code', () => {
  /** AWS's own names (API operations, error codes, metrics the stacks do not alarm on) and key prefixes of the table. */
  const AWS_AND_TABLE_NAMES = new Set([
    'APPLIED', 'AWSLambdaPowertoolsTypeScriptV2', 'DeleteRule', 'DisableRule', 'ERASURE', 'ERROR', 'ErrorMessage', 'LAST',
    'LimitExceededException', 'MaxSendRate', 'MessageRejected', 'Origin', 'Records', 'RemoveTargets', 'STAGE', 'STATE', 'STOPPED',
    'TooManyRequestsException', 'Tracing.ACTIVE', 'USERSEARCH', 'VersionId', 'WebACL', 'SendQuota.Max24HourSend', 'SentLast24Hours',
  ]); // prettier-ignore

  /** Alarm ids (logical ids without the construct path and hash), metric names, resource ids, outputs, stack names. */
  const known = (): { exact: Set<string>; prefixes: string[] } => {
    const exact = new Set<string>([
      METRICS_NAMESPACE,
      ...Object.values(METRIC),
      ...COUNTED_MANAGED_RULE_GROUPS,
      ...Object.values(stackNames('prod')),
      // every output, also those of settings these stacks do not have (a custom domain's DNS targets)
      ...[...INFRA_SOURCES.matchAll(/new CfnOutput\(\w+, '(\w+)'/g)].map((m) => m[1]),
    ]);
    const prefixes: string[] = [];
    for (const template of templates) {
      for (const [id, resource] of Object.entries((template.Resources ?? {}) as Record<string, { Type: string; Properties?: unknown }>)) {
        const bare = id.replace(/[0-9A-F]{8}$/, '');
        prefixes.push(bare);
        if (resource.Type === 'AWS::CloudWatch::Alarm') exact.add(bare.replace(/^Monitoring/, ''));
      }
      for (const m of JSON.stringify(template).matchAll(/"(?:MetricName|DeploymentConfigName)":"([^"]+)"/g)) exact.add(m[1]);
      for (const output of Object.keys(template.Outputs ?? {})) exact.add(output);
    }
    return { exact, prefixes };
  };

  it('are alarms, metrics, resources and outputs of the synthesized stacks', () => {
    const { exact, prefixes } = known();
    const named = [...new Set([...RUNBOOK.matchAll(/`([A-Z][A-Za-z0-9.]*)`/g)].map((m) => m[1]))];
    expect(named).toEqual(expect.arrayContaining(['RemindersHeartbeat', 'ActivityStreamIteratorAgePage', 'PurgeErrors']));
    const unknown = named.filter(
      (name) => !exact.has(name) && !AWS_AND_TABLE_NAMES.has(name) && !prefixes.some((prefix) => prefix.startsWith(name)),
    );
    expect(unknown).toEqual([]);
  });

  it('name the functions by their service names, and the WAF metrics by theirs', () => {
    const services = new Set<string>(
      Object.values(resourcesOf(Template.fromStack(stacks.main), 'AWS::Lambda::Function')).flatMap((fn) => {
        const name = (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables?.POWERTOOLS_SERVICE_NAME;
        return typeof name === 'string' ? [name] : [];
      }),
    );
    for (const stage of ['prod', 'dev'] as const) for (const metric of Object.values(edgeMetricNames(stage))) services.add(String(metric));
    const named = [...new Set([...RUNBOOK.matchAll(/`(career-program-[a-z-]+)`/g)].map((m) => m[1]))];
    expect(named).toEqual(expect.arrayContaining(['career-program-activity-stream']));
    expect(named.filter((name) => !services.has(name))).toEqual([]);
  });
});
