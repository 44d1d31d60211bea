import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, routeKey } from '../../shared/routes';
import { generateOpenApi, groupRoutes, OPENAPI_TARGET, serialize } from '../../infra/ops/generate-openapi';

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

  it('checks the account id of every admin route about one account against the UUID rule (docs/security.md#values-that-become-keys)', () => {
    const about = ROUTES.filter((route) => route.path.startsWith('/api/admin/users/{id}'));
    expect(about.length).toBeGreaterThan(10);
    for (const route of about) {
      const id = (
        operationOf(route.method, route.path) as unknown as { parameters: Array<{ name: string; schema: { pattern?: string } }> }
      ).parameters.find((p) => p.name === 'id');
      expect(id?.schema.pattern, routeKey(route)).toBeDefined();
      expect(new RegExp(id!.schema.pattern!).test('2f1c4f3e-0b7a-4c59-9f0e-3b1d2a4c5e6f'), routeKey(route)).toBe(true);
      expect(new RegExp(id!.schema.pattern!).test('2f1c4f3e-0b7a-4c59-9f0e-3b1d2a4c5e6f\n'), routeKey(route)).toBe(false);
    }
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
    // the product's email rule (shared/key-values.ts), with its own code
    expect(loginSchema.properties.email.maxLength).toBe(254);
    expect(loginSchema.required).toEqual(expect.arrayContaining(['email', 'password']));
    expect(login.responses['400'].content!['application/json'].schema.allOf[1].properties.error.enum).toEqual(
      expect.arrayContaining(['invalid_request', 'invalid_email']),
    );
    // a path parameter with a rule shows it
    const detail = operationOf('GET', '/api/admin/users/{id}') as unknown as {
      parameters: Array<{ name: string; schema: { pattern?: string } }>;
    };
    expect(new RegExp(detail.parameters.find((p) => p.name === 'id')!.schema.pattern!).test('2f1c4f3e-0b7a-4c59-9f0e-3b1d2a4c5e6f')).toBe(
      true,
    );
    expect(new RegExp(detail.parameters.find((p) => p.name === 'id')!.schema.pattern!).test('nobody')).toBe(false);
    const users = operationOf('GET', '/api/admin/users');
    expect(users.parameters!.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(
      expect.arrayContaining(['page', 'page_size', 'cursor', 'query', 'filter', 'status']),
    );
    expect(
      operationOf('DELETE', '/api/admin/users/{id}').responses['409'].content!['application/json'].schema.allOf[1].properties.error.enum,
    ).toEqual(expect.arrayContaining(['not_deleted', 'retention_active']));
  });
});

describe('headers, error details and request bodies as the server has them', () => {
  type Documented = {
    requestBody?: { content: Record<string, { schema: { required?: string[]; properties: Record<string, { pattern?: string }> } }> };
    parameters?: Array<{ name: string; in: string; required: boolean }>;
    responses: Record<string, { headers?: Record<string, unknown>; content: Record<string, { schema: ErrorAnswerSchema }> }>;
  };
  const op = (method: string, path: string) => operationOf(method, path) as unknown as Documented;
  const detailsOf = (method: string, path: string, status: number) =>
    Object.keys((op(method, path).responses[status].content['application/json'].schema.allOf[1] as { properties: object }).properties);

  it('lists the answer headers a client reads', () => {
    expect(Object.keys(op('POST', '/api/auth/verify-2fa').responses['200'].headers ?? {})).toEqual(['Set-Cookie']);
    expect(Object.keys(op('GET', '/api/dashboard').responses['200'].headers ?? {})).toEqual(['Set-Cookie']);
    expect(op('GET', '/api/health').responses['200'].headers).toBeUndefined();
    expect(Object.keys(op('POST', '/api/auth/login').responses['429'].headers ?? {})).toEqual(['Retry-After']);
    expect(Object.keys(op('GET', '/api/notifications/unsubscribe').responses['303'].headers ?? {})).toEqual(['Location']);
    expect(Object.keys(op('GET', '/api/admin/users/export.csv').responses['200'].headers ?? {})).toEqual(
      expect.arrayContaining(['Content-Disposition', 'X-Export-Rows', 'X-Export-Truncated']),
    );
  });

  it('lists error details as properties of the error entries', () => {
    expect(detailsOf('POST', '/api/auth/verify-2fa', 400)).toEqual(expect.arrayContaining(['error', 'attempts_left', 'spent']));
    expect(detailsOf('GET', '/api/modules/{slug}', 403)).toContain('requires');
    expect(detailsOf('DELETE', '/api/admin/users/{id}', 409)).toContain('available_on');
  });

  it('states request bodies as strictly as the routes take them, the one-click form included', () => {
    const register = op('POST', '/api/auth/register').requestBody!.content['application/json'].schema;
    expect(register.required).toEqual(expect.arrayContaining(['first_name', 'last_name', 'email', 'password', 'passwordConfirm']));
    expect(register.properties.first_name.pattern).toBe('^\\s*\\S(?:.{0,98}\\S)?\\s*$');
    expect(op('POST', '/api/admin/modules/unlock').requestBody!.content['application/json'].schema.required).toEqual([
      'user_id',
      'module_id',
    ]);
    expect(op('GET', '/api/auth/password-reset/validate').parameters).toContainEqual(
      expect.objectContaining({ name: 'token', required: true }),
    );
    expect(op('POST', '/api/enroll').requestBody!.content['application/json'].schema.properties.preview).toMatchObject({ type: 'boolean' });
    expect(Object.keys(op('POST', '/api/notifications/unsubscribe').requestBody!.content)).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
  });
});

describe('the completeness check', () => {
  it('names the route and what it lacks', async () => {
    const [{ ROUTE_DOCS, missingSchemas }, { defineRoute }] = await Promise.all([
      import('../../functions/api-docs/openapi'),
      import('../../functions/lib/http'),
    ]);
    const saved = ROUTE_DOCS.admin['GET /api/admin/summary'];
    const impls = new Map(await groupRoutes());
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
