/**
 * Builds the OpenAPI 3.1 document (docs/api.md#6-the-openapi-document) from the route table,
 * the handlers' own zod request schemas (functions/lib/http.ts `defineRoute`) and the response
 * shapes and error codes of shared/api-schemas/<group>.ts. zod 4 emits JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1.
 *
 * Not imported by any Lambda: `npm run openapi` writes openapi.json beside this file, which the
 * `GET /api/openapi.json` route serves (functions/api-docs/openapi-route.ts).
 */
import { toJSONSchema } from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import { adminDocs } from '../../shared/api-schemas/admin';
import { authDocs } from '../../shared/api-schemas/auth';
import type { RouteDoc } from '../../shared/api-schemas/common';
import { learnerDocs } from '../../shared/api-schemas/learner';
import { passkeysDocs } from '../../shared/api-schemas/passkeys';
import { ROUTES, routeKey, type RouteDef, type RouteGroup } from '../../shared/routes';
import type { RouteImpl } from '../lib/http';

export const ROUTE_DOCS: Record<RouteGroup, Record<string, RouteDoc>> = {
  auth: authDocs,
  passkeys: passkeysDocs,
  learner: learnerDocs,
  admin: adminDocs,
};

type Impls = ReadonlyMap<RouteGroup, Readonly<Record<string, RouteImpl>>>;
type JsonSchema = Record<string, unknown>;

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const pathParams = (path: string) => [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);

function jsonSchema(schema: $ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** Where the handler reads input that no schema describes (its source names `req.body` / `req.query`). */
const reads = (impl: RouteImpl, what: 'body' | 'query') => new RegExp(`\\b(req|request)\\.${what}\\b`).test(impl.handler.toString());

/**
 * Everything a route still lacks for the reference, as sentences naming the file to edit. Empty
 * when every route of the table is documented. The test that calls it prints the list.
 */
export function missingSchemas(impls: Impls): string[] {
  const problems: string[] = [];
  for (const route of ROUTES) {
    const key = routeKey(route);
    const file = `shared/api-schemas/${route.group}.ts`;
    const doc = ROUTE_DOCS[route.group][key];
    const impl = impls.get(route.group)?.[key];
    if (!impl) problems.push(`${key}: no implementation registered in functions/groups/${route.group}.ts`);
    if (!doc) {
      problems.push(
        `${key}: no entry in ${file} — add '${key}': { summary, responses: { 200: <zod schema of the answer> }, errors: { <status>: ['<code>', …] } }`,
      );
      continue;
    }
    if (!doc.summary) problems.push(`${key}: no summary in ${file}`);
    if (!Object.keys(doc.responses ?? {}).length)
      problems.push(`${key}: no success response schema in ${file} (responses: { 200: z.object({…}) })`);
    if (!doc.errors)
      problems.push(
        `${key}: no error codes in ${file} — list the route's own codes by status (errors: { 404: ['not_found'] }), or errors: {} when it has none beyond the chain's`,
      );
    if (impl && reads(impl, 'body') && !impl.body && !doc.body)
      problems.push(
        `${key}: the handler reads req.body but has no body schema — give defineRoute a zod \`body\`, or document it as \`body\` in ${file}`,
      );
    if (impl && reads(impl, 'query') && !impl.query && !doc.query)
      problems.push(
        `${key}: the handler reads req.query but has no query schema — give defineRoute a zod \`query\`, or document it as \`query\` in ${file}`,
      );
  }
  for (const group of Object.keys(ROUTE_DOCS) as RouteGroup[]) {
    for (const key of Object.keys(ROUTE_DOCS[group])) {
      const route = ROUTES.find((r) => routeKey(r) === key);
      if (!route) problems.push(`${key}: documented in shared/api-schemas/${group}.ts but not in the route table (shared/routes.ts)`);
      else if (route.group !== group)
        problems.push(`${key}: documented in shared/api-schemas/${group}.ts but served by the ${route.group} group`);
    }
  }
  return problems;
}

/** The error codes a route can answer, by status: the chain's (functions/lib/http.ts) and its own. */
export function errorCodes(route: RouteDef, impl: RouteImpl | undefined, doc: RouteDoc | undefined): Map<number, Set<string>> {
  const codes = new Map<number, Set<string>>();
  const add = (status: number, ...list: readonly string[]) => {
    const set = codes.get(status) ?? new Set<string>();
    for (const code of list) set.add(code);
    codes.set(status, set);
  };
  if (impl?.body || impl?.query) add(400, 'invalid_request');
  if (STATE_CHANGING.has(route.method)) {
    add(400, 'invalid_json');
    add(403, 'bad_origin');
    add(415, 'unsupported_media_type');
  }
  add(413, 'payload_too_large');
  if (pathParams(route.path).length) {
    add(400, 'invalid_path');
    add(404, 'not_found'); // a parameter longer than any id or outside its rule (functions/lib/http.ts)
  }
  if (route.access !== 'public') add(401, 'unauthorized');
  if (route.access === 'admin') add(403, 'admin_required');
  for (const [status, list] of Object.entries(doc?.errors ?? {})) add(Number(status), ...(list ?? []));
  add(500, 'internal_error');
  add(503, 'unavailable');
  return new Map([...codes].sort(([a], [b]) => a - b));
}

const SESSION_RENEWAL = 'the session cookie, renewed while the session is in use (docs/security.md)';
const RETRY_AFTER = 'seconds to wait before trying again';

/** An OpenAPI `headers` object of header name → description (none: nothing). */
const headersObject = (headers: Record<string, string>) =>
  Object.keys(headers).length
    ? {
        headers: Object.fromEntries(
          Object.entries(headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]),
        ),
      }
    : {};

function operation(route: RouteDef, impl: RouteImpl | undefined, doc: RouteDoc | undefined) {
  // a path parameter's rule (RouteImpl.params, shared/key-values.ts) where the route has one
  const paramRules = impl?.params ? ((jsonSchema(impl.params, 'input').properties ?? {}) as Record<string, JsonSchema>) : {};
  const parameters: JsonSchema[] = pathParams(route.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: paramRules[name] ?? { type: 'string' },
  }));
  const query = doc?.query ?? impl?.query;
  if (query) {
    const schema = jsonSchema(query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      parameters.push({ name, in: 'query', required: schema.required?.includes(name) ?? false, schema: property });
    }
  }
  const body = doc?.body ?? impl?.body;
  const details = Object.fromEntries(Object.entries(doc?.details ?? {}).map(([name, schema]) => [name, jsonSchema(schema, 'output')]));
  const responses: Record<string, unknown> = {};
  const successHeaders = { ...doc?.headers };
  if (route.access !== 'public') successHeaders['Set-Cookie'] = [successHeaders['Set-Cookie'], SESSION_RENEWAL].filter(Boolean).join('; ');
  // Read as input: response objects stay open (no `additionalProperties: false`), so a field
  // added to an answer does not contradict the reference; clients ignore unknown fields.
  for (const [status, schema] of Object.entries(doc?.responses ?? {})) {
    responses[status] = {
      description: doc?.description ?? 'Success',
      ...headersObject(successHeaders),
      content: { [doc?.contentType ?? 'application/json']: { schema: jsonSchema(schema, 'input') } },
    };
  }
  for (const [status, codes] of errorCodes(route, impl, doc)) {
    responses[String(status)] = {
      description: [...codes].join(', '),
      ...headersObject(status === 429 || status === 503 ? { 'Retry-After': RETRY_AFTER } : {}),
      content: {
        'application/json': {
          schema: {
            allOf: [
              { $ref: '#/components/schemas/Error' },
              { type: 'object', properties: { error: { type: 'string', enum: [...codes] }, ...details } },
            ],
          },
        },
      },
    };
  }
  return {
    operationId: `${route.method.toLowerCase()}${route.path
      .replace(/^\/api/, '')
      .replace(/[{}]/g, '')
      .replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c?: string) => (c ? c.toUpperCase() : ''))}`,
    summary: doc?.summary ?? '',
    tags: [route.group],
    'x-access': route.access,
    security: route.access === 'public' ? [] : [{ session: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(body
      ? {
          requestBody: {
            // An empty body counts as `{}` (docs/api.md#3-conventions).
            required: false,
            content: {
              'application/json': { schema: jsonSchema(body, 'input') },
              // RFC 8058: mail providers POST the one-click unsubscribe as a form (functions/lib/http.ts `formBody`).
              ...(impl?.formBody ? { 'application/x-www-form-urlencoded': { schema: jsonSchema(body, 'input') } } : {}),
            },
          },
        }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of every route in the table. */
/** What each route group (an OpenAPI tag, one Lambda function) covers. */
const GROUP_DESCRIPTIONS: Record<RouteGroup, string> = {
  auth: 'Registration, email verification, sign-in with its second step, password reset, sessions, the signed-in user, the public certificate check.',
  passkeys: 'Passkey registration, management and sign-in.',
  learner: "The learner's program, reminder settings, password change, certificate, data export and self-deletion.",
  admin: 'The admin console: users and their accounts, metrics, the audit log, program authoring.',
};

export function buildOpenApiDocument(impls: Impls) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES) {
    const key = routeKey(route);
    paths[route.path] ??= {};
    paths[route.path][route.method.toLowerCase()] = operation(route, impls.get(route.group)?.[key], ROUTE_DOCS[route.group][key]);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Career Program API',
      version: '1',
      description:
        'Generated from shared/routes.ts, the routes’ zod schemas and shared/api-schemas/ (`npm run openapi`). How to read it: docs/api.md. ' +
        'Every error answer is `{ error: <code>, ...details }`; each status lists the codes it can carry. `x-access` is the route’s access level.',
    },
    servers: [{ url: '/' }],
    tags: Object.entries(GROUP_DESCRIPTIONS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: '__Host-session' } },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: { type: 'string', description: 'a stable, lower snake case code' },
            fields: { type: 'array', items: { type: 'string' }, description: 'invalid_request, missing_fields: the inputs at fault' },
            retry_after: { type: 'number', description: 'throttled: seconds to wait (also in Retry-After)' },
          },
          additionalProperties: true,
        },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
