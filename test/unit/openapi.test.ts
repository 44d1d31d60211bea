import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, routeKey } from '../../shared/routes';
import { generateOpenApi, OPENAPI_TARGET, serialize } from '../../infra/ops/generate-openapi';

/**
 * The OpenAPI reference (docs/api.md#6-the-openapi-document): every route of shared/routes.ts is
 * documented with its request, response and error codes, and the served file is the one the
 * current code generates.
 */
let generated: Awaited<ReturnType<typeof generateOpenApi>>;
beforeAll(async () => {
  generated = await generateOpenApi();
}, 60_000);

/** An error answer's schema: the shared Error shape, then the route's codes for that status. */
type ErrorAnswerSchema = { allOf: [{ $ref: string }, { properties: { error: { enum: string[] } } }] };
type Operation = {
  parameters?: Array<{ name: string; in: string; required: boolean }>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  /** Only error answers' schemas are read below, so their shape is the one named here. */
  responses: Record<string, { content?: Record<string, { schema: ErrorAnswerSchema }> }>;
};
const operationOf = (method: string, path: string) =>
  (generated.document.paths as Record<string, Record<string, Operation>>)[path]?.[method.toLowerCase()];

describe('the OpenAPI reference', () => {
  it('documents every route: request schema where it takes input, success response, error codes', () => {
    // Each line names the route, what is missing and the file to edit.
    expect(generated.problems, `routes lacking their reference:\n- ${generated.problems.join('\n- ')}\n`).toEqual([]);
  });

  it('is the served file as the current code generates it (run `npm run openapi` after changing a route)', () => {
    const served = readFileSync(OPENAPI_TARGET, 'utf8');
    expect(served === serialize(generated.document), 'functions/api-docs/openapi.json is stale: run `npm run openapi` and commit it').toBe(
      true,
    );
  });

  it('is OpenAPI 3.1 with one operation per route, its path parameters, and an error shape per status', () => {
    expect(generated.document.openapi).toBe('3.1.0');
    for (const route of ROUTES) {
      const op = operationOf(route.method, route.path);
      expect(op, routeKey(route)).toBeDefined();
      for (const name of [...route.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1])) {
        expect(
          op.parameters?.some((p) => p.in === 'path' && p.name === name && p.required),
          `${routeKey(route)} {${name}}`,
        ).toBe(true);
      }
      const statuses = Object.keys(op.responses).map(Number);
      // a success answer: 2xx, or a redirect for a link opened from an email (GET /api/notifications/unsubscribe → 303)
      expect(
        statuses.some((s) => s >= 200 && s < 400),
        routeKey(route),
      ).toBe(true);
      for (const status of statuses.filter((s) => s >= 400)) {
        const schema = op.responses[status].content!['application/json'].schema;
        expect(schema.allOf[0].$ref, `${routeKey(route)} ${status}`).toBe('#/components/schemas/Error');
        expect(schema.allOf[1].properties.error.enum.length, `${routeKey(route)} ${status}`).toBeGreaterThan(0);
      }
      expect(op.responses['500'], routeKey(route)).toBeDefined();
      if (route.access !== 'public')
        expect(op.responses['401'].content!['application/json'].schema.allOf[1].properties.error.enum).toContain('unauthorized');
      if (route.access === 'admin')
        expect(op.responses['403'].content!['application/json'].schema.allOf[1].properties.error.enum).toContain('admin_required');
    }
  });

  it("carries the handlers' own zod schemas: bodies, query parameters and their limits", () => {
    const login = operationOf('POST', '/api/auth/login');
    const loginSchema = login.requestBody!.content['application/json'].schema as {
      properties: Record<string, { maxLength?: number }>;
      required: string[];
    };
    expect(loginSchema.properties.email.maxLength).toBe(320);
    expect(loginSchema.required).toEqual(expect.arrayContaining(['email', 'password']));
    expect(login.responses['400'].content!['application/json'].schema.allOf[1].properties.error.enum).toContain('invalid_request');
    const users = operationOf('GET', '/api/admin/users');
    expect(users.parameters!.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(
      expect.arrayContaining(['page', 'page_size', 'cursor', 'query', 'filter', 'status']),
    );
    expect(
      operationOf('DELETE', '/api/admin/users/{id}').responses['409'].content!['application/json'].schema.allOf[1].properties.error.enum,
    ).toEqual(expect.arrayContaining(['not_deleted', 'retention_active']));
  });
});

describe('the completeness check', () => {
  it('names the route and what it lacks', async () => {
    const [{ ROUTE_DOCS, missingSchemas }, { registeredRoutes }, { defineRoute }] = await Promise.all([
      import('../../functions/api-docs/openapi'),
      import('../../functions/lib/http'),
      import('../../functions/lib/http'),
    ]);
    const saved = ROUTE_DOCS.admin['GET /api/admin/summary'];
    const impls = new Map(registeredRoutes());
    impls.set('learner', {
      ...impls.get('learner'),
      // reads the query without declaring it
      'GET /api/dashboard': defineRoute<unknown>({ handler: (req) => Promise.resolve({ body: { page: req.query.page } }) }),
    });
    try {
      delete ROUTE_DOCS.admin['GET /api/admin/summary'];
      const problems = missingSchemas(impls);
      expect(problems).toContainEqual(expect.stringMatching(/^GET \/api\/admin\/summary: no entry in shared\/api-schemas\/admin\.ts/));
      expect(problems).toContainEqual(expect.stringMatching(/^GET \/api\/dashboard: the handler reads req\.query but has no query schema/));
    } finally {
      ROUTE_DOCS.admin['GET /api/admin/summary'] = saved;
    }
  });
});
