import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ZOD_IMPORT = /(?:from|import\()\s*['"](zod(?:\/[^'"]*)?)['"]/g;

/** Every zod entry point the TypeScript files under `dir` import, with the files that import it. */
function zodImports(dir: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const files = readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' }).filter((file) => /\.tsx?$/.test(file));
  for (const file of files) {
    for (const [, specifier] of readFileSync(path.join(ROOT, dir, file), 'utf8').matchAll(ZOD_IMPORT))
      found.set(specifier, [...(found.get(specifier) ?? []), path.join(dir, file)]);
  }
  return found;
}

/**
 * shared/ is bundled into the Lambdas and the SPA, and its response schemas are the source of the
 * API types both read: one zod flavour, zod/mini (~25 KB bundled against ~95 KB for classic zod,
 * docs/lean-builds.md), so a schema from one file composes with any other.
 */
describe('zod flavour', () => {
  it('shared/ and the SPA import zod/mini only', () => {
    for (const dir of ['shared', 'web/src']) {
      const found = zodImports(dir);
      const other = [...found].filter(([specifier]) => specifier !== 'zod/mini');
      expect(other, dir).toEqual([]);
    }
    expect(zodImports('shared').get('zod/mini')?.length).toBeGreaterThan(1);
  });

  it('finds every spelling of a zod import', () => {
    const sample = `import * as z from 'zod';\nimport type { ZodType } from "zod/v4";\nconst lazy = import('zod/mini');`;
    expect([...sample.matchAll(ZOD_IMPORT)].map((match) => match[1])).toEqual(['zod', 'zod/v4', 'zod/mini']);
  });
});
