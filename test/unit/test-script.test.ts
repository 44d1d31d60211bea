import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import config from '../../vitest.config';

/**
 * `npm test` runs every Vitest project but the benchmarks: they load thousands of accounts and
 * run for minutes, and have their own scripts (`npm run bench`, `bench:reminders`).
 */
it('runs every Vitest project except bench', () => {
  const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
  const selected = [...scripts.test.matchAll(/--project (\S+)/g)].map((match) => match[1]);
  const projects = (config.test?.projects ?? []).map((project) => (project as { test: { name: string } }).test.name);
  expect(projects).toContain('bench');
  expect(selected.sort()).toEqual(projects.filter((name) => name !== 'bench').sort());
});

/**
 * The unit project shares one module graph per worker (`isolate: false`): a file that replaces
 * modules (vi.mock, vi.doMock, vi.resetModules) would hand its replacements, or a second copy of a
 * module with its own registry, to every file after it. Those files run in `unit-isolated`.
 */
it('runs every unit file that replaces modules in the isolated project', () => {
  type Project = { test: { name: string; include?: string[]; exclude?: string[] } };
  const projects = (config.test?.projects ?? []) as Project[];
  const isolated = projects.find((project) => project.test.name === 'unit-isolated')!.test.include!;
  const unit = projects.find((project) => project.test.name === 'unit')!.test;
  // each include pattern is `<folder>/**/*.test.ts`
  const files = unit
    .include!.flatMap((pattern) => {
      const folder = pattern.split('/**')[0];
      return (readdirSync(folder, { recursive: true }) as string[]).map((file) => `${folder}/${file}`);
    })
    .filter((file) => file.endsWith('.test.ts') && !unit.exclude!.includes(file));
  const replacing = files.filter((file) => /\bvi\.(mock|doMock|resetModules)\(/.test(readFileSync(file, 'utf8')));
  expect(replacing).toEqual([]);
  expect(isolated.length).toBeGreaterThan(0);
});
