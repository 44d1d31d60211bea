import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INDEX } from '../../functions/lib/table';

/**
 * Every index and its key attributes are named once, in functions/lib/table.ts (docs/data-model.md):
 * other source files go through INDEX, indexKeys, indexPartition, indexQuery, indexPartitionOf or
 * indexAttributes. The integration tests under test/ are not scanned: they read stored items
 * as DynamoDB holds them, an independent check of the layout.
 */
const root = join(import.meta.dirname, '..', '..');
const SCANNED = ['functions', 'infra', 'shared', 'web/src'];
const TABLE = 'functions/lib/table.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'cdk.out' ? [] : sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

/** Attribute names of every index, and physical index names that differ from their access pattern. */
function forbiddenNames(): string[] {
  return Object.entries(INDEX).flatMap(([pattern, gsi]) => [
    gsi.partitionKey,
    gsi.sortKey,
    ...(gsi.indexName === pattern ? [] : [gsi.indexName]),
  ]);
}

describe('index names', () => {
  it('are spelled only in functions/lib/table.ts', () => {
    const names = [...new Set(forbiddenNames())];
    expect(names).toContain('gsi3pk');
    const pattern = new RegExp(`\\b(${names.join('|')})\\b`);
    const offenders = SCANNED.flatMap(sourceFiles)
      .filter((path) => path !== TABLE)
      .flatMap((path) =>
        readFileSync(join(root, path), 'utf8')
          .split('\n')
          .flatMap((line, index) => (pattern.test(line) ? [`${relative(root, join(root, path))}:${index + 1}: ${line.trim()}`] : [])),
      );
    expect(offenders).toEqual([]);
  });

  it('finds a hand-typed index attribute name (the scan itself works)', () => {
    const pattern = new RegExp(`\\b(${forbiddenNames().join('|')})\\b`);
    expect(pattern.test("KeyConditionExpression: 'gsi1pk = :pk'")).toBe(true);
    expect(pattern.test("IndexName: 'gsi3',")).toBe(true);
    expect(pattern.test("...indexQuery('remindersDue', partition)")).toBe(false);
  });
});
