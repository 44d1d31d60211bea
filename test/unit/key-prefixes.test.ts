import { describe, expect, it } from 'vitest';
import { auditRefPartition, keys, PARTITION_PREFIXES } from '../../functions/lib/table';

/**
 * The partition-key prefixes IAM grants name (PARTITION_PREFIXES) are the prefixes the keys use:
 * a key whose prefix is not listed could not be granted, a listed prefix no key uses is a grant
 * of nothing.
 */
describe('partition-key prefixes', () => {
  // every item key, and the partitions of the audit references (their sort key is the entry's)
  const builders = [
    ...Object.entries(keys),
    ...Object.entries(auditRefPartition).map(([name, build]) => [
      `auditRef.${name}`,
      (...args: never[]) => ({ pk: (build as (...a: never[]) => string)(...args) }),
    ]),
  ] as Array<[string, (...args: never[]) => { pk: string }]>;
  const partitionOf = (build: (...args: never[]) => { pk: string }) => build(...(['a', 'b', 'c', 'd'] as never[])).pk;

  it('every key starts with exactly one listed prefix', () => {
    for (const [name, build] of builders) {
      const pk = partitionOf(build);
      const matching = PARTITION_PREFIXES.filter((prefix) => pk.startsWith(prefix));
      expect(matching, `${name}: ${pk}`).toHaveLength(1);
    }
  });

  it('every listed prefix is used by some key', () => {
    const used = new Set(builders.map(([, build]) => PARTITION_PREFIXES.find((prefix) => partitionOf(build).startsWith(prefix))));
    expect(PARTITION_PREFIXES.filter((prefix) => !used.has(prefix))).toEqual([]);
  });
});
