import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every environment read of the Lambda code goes through functions/lib/config.ts (read and
 * checked once): no other source file under functions/ touches process.env. Tests may set it.
 */
const functionsDir = join(import.meta.dirname, '..', '..', 'functions');

describe('environment reads', () => {
  it('happen only in functions/lib/config.ts', () => {
    const files = (readdirSync(functionsDir, { recursive: true }) as string[]).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
    );
    expect(files).toContain(join('lib', 'config.ts'));
    const offenders = files.filter(
      (file) => file !== join('lib', 'config.ts') && /process\.env\b/.test(readFileSync(join(functionsDir, file), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});
