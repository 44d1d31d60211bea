import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md#7-web: learner pages must not download admin code, and the chart library loads only on
 * the admin dashboard. Checked on the production build (npm test builds the SPA first) by
 * following each chunk's static imports, which the browser fetches with it.
 */
const assets = join(process.cwd(), 'web', 'dist', 'assets');
const read = (file: string) => readFileSync(join(assets, file), 'utf8');

function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of read(file).matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) visit(match[1]);
  };
  visit(entry);
  return seen;
}

const chunkContaining = (text: string) => {
  const found = readdirSync(assets).filter((file) => file.endsWith('.js') && read(file).includes(text));
  expect(found, text).toHaveLength(1);
  return found[0];
};

const ADMIN_MARKERS = ['/api/admin/', 'VictoryContainer'];

const entryChunk = () => /src="\/assets\/([^"]+\.js)"/.exec(readFileSync(join(assets, '..', 'index.html'), 'utf8'))![1];

/**
 * The JavaScript a first visit to a page downloads (docs/lean-builds.md): the entry with its
 * static imports, plus each lazily loaded route module the URL matches (layout, gate, page;
 * router.tsx preloads them together) with theirs. Sizes gzip at zlib's default level.
 */
function firstLoad(routeMarkers: string[]): { files: string[]; gzipKb: number } {
  const files = new Set(staticClosure(entryChunk()));
  for (const marker of routeMarkers) for (const file of staticClosure(chunkContaining(marker))) files.add(file);
  const bytes = [...files].reduce((sum, file) => sum + gzipSync(readFileSync(join(assets, file))).length, 0);
  return { files: [...files], gzipKb: bytes / 1024 };
}

const LAYOUT = 'Skip to main content';
const SESSION_GATE = 'Checking your session…';

describe('the production web bundle', () => {
  it('exists (run `npm run build:web`)', () => {
    expect(existsSync(join(process.cwd(), 'web', 'dist', 'index.html'))).toBe(true);
  });

  const learnerPages: Array<[string, string]> = [
    ['the app shell', 'index'],
    ['the dashboard', 'Resume your next module'],
    ['the enroll page', 'Continue to dashboard'],
    ['the module page', 'Your tasks'],
    ['the settings page', 'Notification preferences'],
    ['the login page', 'Verify and log in'],
  ];

  for (const [name, marker] of learnerPages) {
    it(`loads no admin code or chart library with ${name}`, () => {
      const entry = marker === 'index' ? entryChunk() : chunkContaining(marker);
      for (const file of staticClosure(entry)) {
        for (const adminMarker of ADMIN_MARKERS) expect(read(file), `${file} (${name}) contains ${adminMarker}`).not.toContain(adminMarker);
      }
    });
  }

  it('downloads ≤ 100 KB of JavaScript (gzip) on a first visit to the learner dashboard and to a module page', () => {
    for (const [page, marker, budgetKb] of [
      ['/dashboard', 'Resume your next module', 100],
      ['/modules/:slug', 'Your tasks', 100],
    ] as const) {
      const load = firstLoad([LAYOUT, SESSION_GATE, marker]);
      console.log(
        `${page} first load: ${load.gzipKb.toFixed(1)} KB JS gzip in ${load.files.length} files (headroom to 100 KB: ${(100 - load.gzipKb).toFixed(1)} KB)`,
      );
      // the measure covers the page itself, not only the shell
      expect(
        load.files.some((file) => read(file).includes(marker)),
        page,
      ).toBe(true);
      expect(load.gzipKb, page).toBeLessThanOrEqual(budgetKb);
    }
  });

  it('keeps the data router and the chart library out of the entry chunk', () => {
    const entry = read(entryChunk());
    expect(entry).not.toContain('VictoryContainer');
    // createBrowserRouter's data layer (loaders, actions, fetchers): unused, ~16 KB gzip
    expect(entry).not.toContain('non-empty routes array to createRouter');
  });

  it('keeps the chart library in its own chunk, loaded by the admin dashboard on demand', () => {
    const chart = chunkContaining('VictoryContainer');
    const adminDashboard = chunkContaining('7-Day Actives');
    expect(staticClosure(adminDashboard).has(chart)).toBe(false);
    // a dynamic import (Vite's preload helper names the chunk in a template literal)
    expect(read(adminDashboard)).toContain(`./${chart}\``);
  });
});
