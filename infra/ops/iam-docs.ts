/**
 * `npm run docs:iam`: rewrites docs/security.md's IAM table from the synthesized stack's roles
 * (infra/local/iam/grants-table.ts). test/infra/iam-docs.test.ts fails while they differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderGrantsTable, withGrantsTable } from '../local/iam/grants-table';
import { loadIamModel } from '../local/iam/load-model';

const file = fileURLToPath(new URL('../../docs/security.md', import.meta.url));
const model = await loadIamModel(console.log);
writeFileSync(file, withGrantsTable(readFileSync(file, 'utf8'), renderGrantsTable(model)));
console.log('docs/security.md: IAM table written from the stack.');
