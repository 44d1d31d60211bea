import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The runbook's Logs Insights queries filter on the `message` of log lines: a query that names a
 * message the code never logs finds nothing when it matters. Every literal a query compares
 * `message` with (`message = "…"`, `message in [...]`) must be the first argument of a logger
 * call somewhere in functions/.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const RUNBOOK = readFileSync(path.join(ROOT, 'docs/runbook.md'), 'utf8');

/** Every `message` literal of the runbook's fenced query blocks. */
export function queriedMessages(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  const found = new Set<string>();
  for (const block of blocks) {
    for (const m of block.matchAll(/\bmessage\s*=\s*"([^"]+)"/g)) found.add(m[1]);
    for (const m of block.matchAll(/\bmessage\s+in\s*\[([^\]]+)\]/g)) for (const item of m[1].matchAll(/"([^"]+)"/g)) found.add(item[1]);
  }
  return [...found].sort();
}

/** The first argument of every `logger.<level>('…'` call of the Lambda code (tests left out). */
function loggedMessages(): Set<string> {
  const files = readdirSync(path.join(ROOT, 'functions'), { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
  );
  const messages = new Set<string>();
  for (const file of files) {
    const source = readFileSync(path.join(ROOT, 'functions', file), 'utf8');
    for (const m of source.matchAll(/\blogger\.(?:debug|info|warn|error)\(\s*(['"`])((?:(?!\1).)+)\1/g)) messages.add(m[2]);
  }
  return messages;
}

describe('the runbook queries', () => {
  it('filter only on messages the code logs', () => {
    const queried = queriedMessages(RUNBOOK);
    // the failure paths the runbook leans on are all there
    expect(queried).toEqual(expect.arrayContaining(['request failed', 'purge step failed', 'stale reminder slice dropped']));
    const logged = loggedMessages();
    expect(queried.filter((message) => !logged.has(message))).toEqual([]);
  });

  it('are read from the fenced blocks, both comparison forms', () => {
    const sample = '```\nfields a\n| filter message = "one" or message in ["two", "three"]\n```\nmessage = "prose, not a query"\n';
    expect(queriedMessages(sample)).toEqual(['one', 'three', 'two']);
  });
});
