import { readFileSync } from 'node:fs';
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
