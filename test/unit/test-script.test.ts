import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import config from '../../vitest.config';

/**
 * `npm test` runs every Vitest project but the benchmarks (they load thousands of accounts and
 * run for minutes, and have their own scripts: `npm run bench`, `bench:reminders`), the
 * broken-build soak (`npm run soak:breaks`, minutes of its own) and `e2e`, whose files the
 * `browser` project runs, all of them, inside one file.
 */
const outsideNpmTest = ['bench', 'e2e', 'soak-breaks'];
it('runs every Vitest project except bench, soak-breaks and e2e', () => {
  const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
  const selected = [...scripts.test.matchAll(/--project (\S+)/g)].map((match) => match[1]);
  const projects = (config.test?.projects ?? []).map((project) => (project as { test: { name: string } }).test.name);
  expect(projects).toEqual(expect.arrayContaining([...outsideNpmTest, 'browser']));
  expect(selected.sort()).toEqual(projects.filter((name) => !outsideNpmTest.includes(name)).sort());
  expect(readFileSync('test/browser/suite.test.ts', 'utf8')).toContain("import.meta.glob('../e2e/**/*.test.ts')");
});

/**
 * The unit and web projects share one module graph per worker (`isolate: false`): a file that
 * replaces modules or globals (vi.mock, vi.doMock, vi.resetModules, vi.stubGlobal) would hand its
 * replacements, or a second copy of a module with its own registry, to every file after it. Those
 * files run in `unit-isolated` / `web-isolated`.
 */
it.each([
  ['unit', 'unit-isolated'],
  ['web', 'web-isolated'],
])('runs every %s file that replaces modules in %s', (shared, isolatedName) => {
  type Project = { test: { name: string; include?: string[]; exclude?: string[] } };
  const projects = (config.test?.projects ?? []) as Project[];
  const isolated = projects.find((project) => project.test.name === isolatedName)!.test.include!;
  const project = projects.find((candidate) => candidate.test.name === shared)!.test;
  // each include pattern is `<folder>/**/*.test.<ext>`
  const files = project
    .include!.flatMap((pattern) => {
      const folder = pattern.split('/**')[0];
      return (readdirSync(folder, { recursive: true }) as string[]).map((file) => `${folder}/${file}`);
    })
    .filter((file) => /\.test\.tsx?$/.test(file) && !project.exclude!.includes(file));
  const replacing = files.filter((file) => /\bvi\.(mock|doMock|resetModules|stubGlobal)\(/.test(readFileSync(file, 'utf8')));
  expect(replacing).toEqual([]);
  expect(isolated.length).toBeGreaterThan(0);
});
