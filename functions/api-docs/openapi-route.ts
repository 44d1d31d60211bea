import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineRoute } from '../lib/http';

/** The generated document: beside this file in the source, beside index.js in the auth bundle. */
export const OPENAPI_FILE = 'openapi.json';
let document: unknown;

/**
 * `GET /api/openapi.json` (public). The document is generated ahead of time (`npm run openapi`,
 * checked up to date by test/unit/openapi.test.ts) and read from a file shipped beside the bundle:
 * generating it at run time would put every response schema and zod's JSON Schema emitter in
 * the auth bundle (docs/lean-builds.md), for an answer that only changes with the code.
 */
export const openApiRoute = defineRoute({
  handler: () => {
    document ??= JSON.parse(readFileSync(join(import.meta.dirname, OPENAPI_FILE), 'utf8'));
    return Promise.resolve({ body: document, headers: { 'Cache-Control': 'public, max-age=300' } });
  },
});
