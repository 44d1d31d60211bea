import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { builtFrom, recordBuild, siteBuildDigest } from '../../infra/site-build-digest';

const outDir = mkdtempSync(path.join(tmpdir(), 'site-build-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

it('keeps a folder built from the same inputs, and only that', () => {
  const digest = siteBuildDigest(outDir, {});
  expect(builtFrom(outDir, digest)).toBe(false); // never built
  recordBuild(outDir, digest);
  expect(builtFrom(outDir, digest)).toBe(false); // recorded, but the build is not there
  writeFileSync(path.join(outDir, 'index.html'), '<!doctype html>');
  expect(builtFrom(outDir, digest)).toBe(true);
  expect(siteBuildDigest(outDir, {})).toBe(digest); // stable
  // a VITE_ variable is an input of the build; other variables are not
  expect(siteBuildDigest(outDir, { VITE_API: 'x' })).not.toBe(digest);
  expect(siteBuildDigest(outDir, { HOME: '/elsewhere' })).toBe(digest);
  expect(builtFrom(outDir, siteBuildDigest(outDir, { VITE_API: 'x' }))).toBe(false);
  // another output folder is another build
  expect(siteBuildDigest(`${outDir}-other`, {})).not.toBe(digest);
});
