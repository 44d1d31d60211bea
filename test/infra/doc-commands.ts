import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The `npx cdk …` command lines of a documentation section, as an operator would paste them: the
 * code blocks of the section (up to the next heading of its level or above), `\` continuations
 * joined, `# comments` dropped, split into words.
 */
export interface DocCommand {
  /** Where it was read, e.g. `docs/runbook.md "Roll back"`. */
  source: string;
  /** The words after `npx cdk`: the verb first. */
  args: string[];
}

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

export function section(markdown: string, heading: string): string {
  const level = /^#+/.exec(heading)![0].length;
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0) throw new Error(`no heading "${heading}"`);
  const end = lines.findIndex((line, index) => index > start && new RegExp(`^#{1,${level}} `).test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

export function docCommands(file: string, heading: string): DocCommand[] {
  const text = section(readFileSync(path.join(REPO_ROOT, file), 'utf8'), heading);
  const blocks = [...text.matchAll(/^```[a-z]*\n([\s\S]*?)^```/gm)].map((match) => match[1]);
  const source = `${file} "${heading.replace(/^#+ /, '')}"`;
  return blocks
    .flatMap((block) => block.replace(/\\\n\s*/g, ' ').split('\n'))
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter((line) => line.startsWith('npx cdk '))
    .map((line) => ({ source, args: line.split(/\s+/).slice(2) }));
}
