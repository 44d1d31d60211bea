import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';

/**
 * The links that tie code and docs together stay true: every `docs/<file>.md#<anchor>` (in the
 * docs, the README and code comments) and every Markdown link between the docs names a heading
 * that exists, with GitHub's anchor rules, and every repository path a comment or a document
 * names is in the repository.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const TRACKED = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
const CODE = TRACKED.filter((file) => /\.(ts|tsx|js|mjs|css)$/.test(file));
const MARKDOWN = TRACKED.filter((file) => file.endsWith('.md'));
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** The anchors GitHub gives a Markdown file's headings (fenced code skipped, duplicates numbered) and its `<a id>`s. */
export function headingAnchors(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    // a link in a heading contributes its text only
    if (heading) anchors.add(slugger.slug(heading[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')));
    // an explicit anchor (`<a id="…"></a>`) in the text
    if (!fenced) for (const [, id] of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id);
  }
  return anchors;
}

/** Comments of a source file (line and block), where prose cites docs and files. */
const comments = (source: string) => [...source.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\w])\/\/[^\n]*/g)].map((match) => match[0]).join('\n');

/** `docs/<file>.md#<anchor>` anywhere, and `[text](<file>.md#<anchor>)` / `(#anchor)` inside a Markdown file. */
function anchorLinks(file: string, text: string): Array<{ target: string; anchor: string }> {
  const links = [...text.matchAll(/(?<![\w/.-])(docs\/[\w-]+\.md|README\.md)#([\w-]+)/g)].map((match) => ({
    target: match[1],
    anchor: match[2],
  }));
  if (file.endsWith('.md')) {
    for (const [, target, anchor] of text.matchAll(/\]\(([^)#\s]*)#([^)\s]+)\)/g)) {
      if (/^https?:/.test(target)) continue;
      links.push({ target: target ? path.posix.join(path.posix.dirname(file), target) : file, anchor });
    }
  }
  return links;
}

/** Repository paths named in prose: a top-level folder of this repository, then a file with an extension or a folder. */
const NAMED_PATH = /(?<![\w./$@~-])((?:functions|shared|web|infra|test|docs)\/[\w.@/-]*[\w-](?:\.[a-z]{1,5}|\/))(?![\w{<$*/-])/g;
/** Named on purpose though absent from a checkout: build output. */
const GENERATED = [/^web\/dist\//, /^cdk\.out\//];

function namedPaths(text: string): string[] {
  return [...text.matchAll(NAMED_PATH)].map((match) => match[1]).filter((named) => !GENERATED.some((pattern) => pattern.test(named)));
}

describe('doc links', () => {
  const anchorsOf = new Map<string, Set<string> | null>();
  const anchors = (file: string) => {
    if (!anchorsOf.has(file)) anchorsOf.set(file, existsSync(path.join(ROOT, file)) ? headingAnchors(read(file)) : null);
    return anchorsOf.get(file)!;
  };

  it('every docs/<file>.md#<anchor> link names an existing heading', () => {
    const broken: string[] = [];
    for (const file of [...MARKDOWN, ...CODE]) {
      const text = file.endsWith('.md') ? read(file) : comments(read(file));
      for (const { target, anchor } of anchorLinks(file, text)) {
        const found = anchors(target);
        if (!found?.has(anchor)) broken.push(`${file}: ${target}#${anchor}${found ? '' : ' (no such file)'}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every repository path a comment or a document names exists', () => {
    const missing: string[] = [];
    for (const file of [...MARKDOWN, ...CODE]) {
      const text = file.endsWith('.md') ? read(file) : comments(read(file));
      for (const named of namedPaths(text)) if (!existsSync(path.join(ROOT, named))) missing.push(`${file}: ${named}`);
    }
    expect([...new Set(missing)]).toEqual([]);
  });

  it('reads anchors, links and paths the way GitHub and a reader do', () => {
    const doc =
      '# Product reference\n## 10. Journeys\n### 10.8 Progress\n```\n# not a heading\n```\n## Notes\n## Notes\n## The `keys` [table](x.md)\n* **Two.** <a id="two"></a>text';
    expect([...headingAnchors(doc)]).toEqual([
      'product-reference',
      '10-journeys',
      '108-progress',
      'notes',
      'notes-1',
      'the-keys-table',
      'two',
    ]);
    expect(anchorLinks('docs/a.md', 'see docs/product.md#108-progress and [x](security.md#sessions), [y](#notes)')).toEqual([
      { target: 'docs/product.md', anchor: '108-progress' },
      { target: 'docs/security.md', anchor: 'sessions' },
      { target: 'docs/a.md', anchor: 'notes' },
    ]);
    expect(comments("const url = 'https://x.test/a'; // functions/lib/http.ts\n/* shared/routes.ts */")).toBe(
      '// functions/lib/http.ts\n/* shared/routes.ts */',
    );
    expect(
      namedPaths('(functions/lib/http.ts) `web/src/features/` ../../shared/x.ts functions/groups/${group}.ts web/dist/index.html'),
    ).toEqual(['functions/lib/http.ts', 'web/src/features/']);
  });
});
