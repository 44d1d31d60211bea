import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../functions/lib/config';
import { stackNames } from '../../infra/stack-names';
import { section } from './doc-commands';
import { synthStack } from './synth-stack';

/**
 * The operator's lines of the deploy procedures (README "Deploy to AWS", docs/runbook.md "Deploy")
 * beyond the `cdk` commands the deploy rehearsal runs: every `npm run` names a script, the data
 * migrations run after the deploy and before the smoke check, and the table they migrate is read
 * from the stack and output the deploy creates.
 */
const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;

/** The section's shell lines as pasted: `\` continuations joined, trailing `# comments` dropped. */
function shellLines(file: string, heading: string): string[] {
  const blocks = [...section(read(file), heading).matchAll(/^```[a-z]*\n([\s\S]*?)^```/gm)].map((match) => match[1]);
  return blocks
    .flatMap((block) => block.replace(/\\\n\s*/g, ' ').split('\n'))
    .map((line) => line.replace(/\s#\s.*$/, '').trim())
    .filter(Boolean);
}

const PROCEDURES = [
  ['README.md', '## Deploy to AWS'],
  ['docs/runbook.md', '### Deploy'],
] as const;

describe.each(PROCEDURES)('%s "%s"', (file, heading) => {
  const lines = shellLines(file, heading);
  const index = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));

  it('names only npm scripts that exist', () => {
    const used = lines.flatMap((line) => [...line.matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]));
    expect(used).toEqual(expect.arrayContaining(['migrate', 'smoke']));
    for (const name of used) expect(Object.keys(scripts), `npm run ${name}`).toContain(name);
    expect(scripts.migrate).toBe('tsx infra/ops/migrate.ts');
  });

  it('runs the data migrations after the deploy and before the smoke check, on the stage it deployed', () => {
    const deploy = index(/^npx cdk deploy /);
    const migrate = index(/npm run migrate$/);
    const smoke = index(/^npm run smoke /);
    expect(deploy).toBeGreaterThanOrEqual(0);
    expect([deploy < migrate, migrate < smoke]).toEqual([true, true]);
    const stage = /-c stage=(\w+)/.exec(lines[deploy])?.[1];
    expect(stage).toBe('prod');
    expect(lines[smoke]).toContain(`--stage ${stage}`);
    // TABLE_NAME from the deployed main stack's output
    const migrateLine = lines[migrate];
    expect(migrateLine).toMatch(/^TABLE_NAME=\$\(aws cloudformation describe-stacks /);
    expect(/--stack-name (\S+)/.exec(migrateLine)?.[1]).toBe(stackNames(stage).main);
    const output = /OutputKey=='(\w+)'/.exec(migrateLine)?.[1];
    expect(output).toBe('TableName');
    // which migrate reads from TABLE_NAME (functions/lib/config.ts)
    const tableName = 'CareerProgramStack-DataTable-1A2B';
    expect(readConfig({ TABLE_NAME: tableName, SESSION_SECRET: 'unused-by-migrate-unused-by-migrate-unused' }).tableName).toBe(tableName);
    const prod = synthStack({ stage: 'prod' });
    expect(prod.template.findOutputs(output!)[output!]?.Value).toEqual({ Ref: prod.idOf(prod.stack.data.table) });
  });
});
