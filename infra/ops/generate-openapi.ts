/**
 * Writes functions/api-docs/openapi.json, the document `GET /api/openapi.json` serves
 * (docs/api.md#6-the-openapi-document). Run `npm run openapi` after changing a route, its zod
 * schemas or shared/api-schemas/; test/unit/openapi.test.ts fails while the file is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RouteImpl } from '../../functions/lib/http';
import type { RouteGroup } from '../../shared/routes';

/** The group Lambdas check their environment at import; these values are never used to serve. */
const GENERATOR_ENV = {
  STAGE: 'local',
  SESSION_SECRET: 'openapi-generator-only-openapi-generator',
  TABLE_NAME: 'openapi',
  AWS_REGION: 'us-east-1',
  LOG_LEVEL: 'SILENT',
};

/**
 * Each group's route implementations, as its Lambda module hands them to createGroupHandler
 * (the handler carries them as `routes`).
 */
export async function groupRoutes(): Promise<ReadonlyMap<RouteGroup, Readonly<Record<string, RouteImpl>>>> {
  for (const [name, value] of Object.entries(GENERATOR_ENV)) process.env[name] ??= value;
  const [auth, passkeys, learner, admin] = await Promise.all([
    import('../../functions/groups/auth'),
    import('../../functions/groups/passkeys'),
    import('../../functions/groups/learner'),
    import('../../functions/groups/admin'),
  ]);
  return new Map<RouteGroup, Readonly<Record<string, RouteImpl>>>([
    ['auth', auth.handler.routes],
    ['passkeys', passkeys.handler.routes],
    ['learner', learner.handler.routes],
    ['admin', admin.handler.routes],
  ]);
}

/** The document as the current code describes it (imports the four group Lambdas to read their routes). */
export async function generateOpenApi() {
  const routes = await groupRoutes();
  const { buildOpenApiDocument, missingSchemas } = await import('../../functions/api-docs/openapi');
  return { document: buildOpenApiDocument(routes), problems: missingSchemas(routes) };
}

export const serialize = (document: unknown) => `${JSON.stringify(document, null, 1)}\n`;
export const OPENAPI_TARGET = fileURLToPath(new URL('../../functions/api-docs/openapi.json', import.meta.url));

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { document, problems } = await generateOpenApi();
  writeFileSync(OPENAPI_TARGET, serialize(document));
  console.log(`wrote ${OPENAPI_TARGET} (${Object.keys(document.paths).length} paths)`);
  if (problems.length) {
    console.error(`\n${problems.length} route(s) lack their reference:\n- ${problems.join('\n- ')}`);
    process.exitCode = 1;
  }
}
