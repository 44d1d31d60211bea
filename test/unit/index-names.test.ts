import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INDEX } from '../../functions/lib/table';

/**
 * Every index, its key attributes and every key prefix are named once, in functions/lib/table.ts
 * (docs/data-model.md): other source files go through INDEX, indexKeys, indexPartition,
 * indexQuery, indexPartitionOf or indexAttributes, and through keys, PK, SK, sortPrefix and
 * keyAfter. The tests are not scanned for key prefixes (the integration tests under test/ are not
 * scanned at all): they spell stored items as DynamoDB holds them, an independent check of the layout.
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

/**
 * A key prefix typed out in code: a string literal opening with capitals and `#` (`'USER#'`,
 * `` `PROGRESS#${id}#` ``). Comment lines are skipped: they describe the layout, they do not build keys.
 */
const LITERAL_PREFIX = /['"`][A-Z][A-Z0-9_]*#/;
const isComment = (line: string) => /^\s*(\/\/|\/\*|\*)/.test(line);

describe('key prefixes', () => {
  it('are spelled only in functions/lib/table.ts', () => {
    const offenders = SCANNED.flatMap(sourceFiles)
      .filter((path) => path !== TABLE && !/\.test\.tsx?$/.test(path))
      .flatMap((path) =>
        readFileSync(join(root, path), 'utf8')
          .split('\n')
          .flatMap((line, index) => (!isComment(line) && LITERAL_PREFIX.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
      );
    expect(offenders).toEqual([]);
  });

  it('finds a hand-typed key prefix (the scan itself works)', () => {
    expect(LITERAL_PREFIX.test("ExpressionAttributeValues: { ':pk': `USER#${userId}` }")).toBe(true);
    expect(LITERAL_PREFIX.test("item.sk.startsWith('PASSKEY#')")).toBe(true);
    expect(LITERAL_PREFIX.test("'STATS#LASTACTIVE'")).toBe(true);
    expect(LITERAL_PREFIX.test("{ ':pk': keys.user(userId).pk, ':prefix': SK.passkey }")).toBe(false);
    expect(LITERAL_PREFIX.test("color: '#fff'")).toBe(false);
    expect(isComment(' * USER#<id> / PROFILE')).toBe(true);
  });
});
