import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GRANTS_TABLE_END, GRANTS_TABLE_START, renderGrantsTable } from '../../infra/local/iam/grants-table';
import { loadIamModel } from '../../infra/local/iam/load-model';

describe("docs/security.md's IAM table", () => {
  it('is what the synthesized stack grants each function (npm run docs:iam rewrites it)', async () => {
    const docs = readFileSync(path.resolve(import.meta.dirname, '../../docs/security.md'), 'utf8');
    const written = docs.slice(docs.indexOf(GRANTS_TABLE_START), docs.indexOf(GRANTS_TABLE_END) + GRANTS_TABLE_END.length);
    expect(written).toBe(renderGrantsTable(await loadIamModel()));
  });
});
