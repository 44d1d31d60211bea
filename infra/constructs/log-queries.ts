import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { CfnQueryDefinition, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** A Logs Insights query of docs/runbook.md, named by the section it is in. */
export interface RunbookQuery {
  name: string;
  query: string;
}

const QUERY_START = /^(fields|filter|stats|sort|parse)\b/;

/**
 * The Logs Insights queries of the runbook: its fenced blocks that start with a query command,
 * named by their `###` section (with a number when a section has several).
 */
export function runbookQueries(markdown: string): RunbookQuery[] {
  const queries: Array<{ section: string; query: string }> = [];
  let section = 'Runbook';
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heading = /^#{2,4} (.+)$/.exec(lines[i]);
    if (heading) section = heading[1].trim();
    if (lines[i] !== '```') continue;
    const end = lines.indexOf('```', i + 1);
    const block = lines.slice(i + 1, end).join('\n');
    if (QUERY_START.test(block)) queries.push({ section, query: block });
    i = end;
  }
  const perSection = new Map<string, number>();
  for (const { section: name } of queries) perSection.set(name, (perSection.get(name) ?? 0) + 1);
  const seen = new Map<string, number>();
  return queries.map(({ section: name, query }) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return { name: (perSection.get(name) ?? 0) > 1 ? `${name} ${n}` : name, query };
  });
}

export const RUNBOOK_PATH = path.resolve(import.meta.dirname, '..', '..', 'docs', 'runbook.md');

/**
 * The runbook's queries saved in CloudWatch Logs Insights (Queries → Saved, folder = the stack's
 * name), over the stack's function and API access log groups, so the on-call engineer runs them
 * without copying: the runbook stays their one source, each deploy saves them again.
 */
export class RunbookQueries extends Construct {
  readonly queries: RunbookQuery[];

  constructor(scope: Construct, id: string, props: { logGroups: ILogGroup[]; runbookPath?: string }) {
    super(scope, id);
    this.queries = runbookQueries(readFileSync(props.runbookPath ?? RUNBOOK_PATH, 'utf8'));
    const folder = Stack.of(this).stackName;
    this.queries.forEach(({ name, query }, index) => {
      new CfnQueryDefinition(this, `Query${index + 1}`, {
        name: `${folder}/${name}`,
        queryString: query,
        logGroupNames: props.logGroups.map((group) => group.logGroupName),
      });
    });
  }
}
