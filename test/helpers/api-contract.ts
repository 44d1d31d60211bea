import { readFileSync } from 'node:fs';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { THROTTLED_RESPONSE } from '../../infra/edge-behaviour';

/**
 * The API contract held by every integration test (docs/api.md#8-the-contract-test): each call
 * a test makes through the local CloudFront is checked against the served OpenAPI document
 * (functions/api-docs/openapi.json). The answer's status must be documented for the operation,
 * its body must match that status's schema (an error's code is in the status's enum, each detail
 * a documented property), each header a client acts on must be documented, and a request the
 * server accepted must match the documented request body. A mismatch fails the test that made
 * the call, naming the operation and the JSON pointer at fault.
 */
const DOCUMENT_URL = new URL('../../functions/api-docs/openapi.json', import.meta.url);

/** Answer headers a client reads; the others (security, caching) are the same on every answer (docs/api.md). */
const MEANINGFUL_HEADERS = /^(set-cookie|retry-after|location|content-disposition|x-export-.*)$/i;

interface MediaType {
  schema: Record<string, unknown>;
}
interface Response {
  headers?: Record<string, unknown>;
  content?: Record<string, MediaType>;
}
interface Operation {
  operationId: string;
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, Response>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: { Error: { properties: Record<string, unknown> } } };
}

export interface Exchange {
  method: string;
  /** The path with its query, as requested. */
  url: string;
  requestContentType?: string;
  requestBody?: string;
  status: number;
  responseContentType: string;
  headers: Headers;
  /** The parsed JSON answer, or its text. */
  body: unknown;
}

interface Contract {
  document: OpenApiDocument;
  ajv: Ajv2020;
  routes: Array<{ method: string; path: string; pattern: RegExp; operation: Operation }>;
  validators: Map<string, ValidateFunction>;
}
let contract: Contract | undefined;

function load(): Contract {
  const document = JSON.parse(readFileSync(DOCUMENT_URL, 'utf8')) as OpenApiDocument;
  // strict: false: a schema is compiled with the document's `components` beside it, which Ajv does not know.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  const routes = Object.entries(document.paths)
    .flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        pattern: new RegExp(`^${path.replace(/\./g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        operation,
      })),
    )
    // A literal path (…/users/export.csv) before the template it also matches (…/users/{id}).
    .sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  return { document, ajv, routes, validators: new Map() };
}

/** A JSON pointer escaped for use inside a `$ref`. */
const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * A schema of the document compiled once, with the document's components beside it so that its
 * `#/components/…` references resolve: compiling only the schemas a test file meets keeps the
 * check to milliseconds per file (docs/api.md#8-the-contract-test).
 */
function validator(c: Contract, schema: Record<string, unknown>) {
  // Keyed by the schema's text: many operations share one error schema.
  const key = JSON.stringify(schema);
  let validate = c.validators.get(key);
  if (!validate) {
    validate = c.ajv.compile({ ...schema, components: c.document.components });
    c.validators.set(key, validate);
  }
  return validate;
}

const describeErrors = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`).join('; ');

/** What is wrong with one exchange, as sentences naming the operation and the JSON pointer; empty when it holds. */
export function contractProblems(exchange: Exchange): string[] {
  contract ??= load();
  const c = contract;
  const path = exchange.url.split('?')[0];
  const route = c.routes.find((r) => r.method === exchange.method && r.pattern.test(path));
  // Paths outside the API or the route table (the SPA, fuzzed addresses) are no operation of the document.
  if (!route) return [];
  const { operation } = route;
  const name = `${exchange.method} ${route.path} (${operation.operationId}) ${exchange.status}`;
  // API Gateway's own throttling answer, the same for every route (docs/api.md#3-conventions).
  if (exchange.status === THROTTLED_RESPONSE.status && JSON.stringify(exchange.body) === JSON.stringify(THROTTLED_RESPONSE.body)) return [];
  const problems: string[] = [];
  const response = operation.responses[String(exchange.status)];
  if (!response) return [`${name}: status not documented (documented: ${Object.keys(operation.responses).join(', ')})`];

  for (const header of exchange.headers.keys()) {
    if (!MEANINGFUL_HEADERS.test(header)) continue;
    if (!Object.keys(response.headers ?? {}).some((documented) => documented.toLowerCase() === header))
      problems.push(
        `${name}: header ${header} not documented at ${pointer('paths', route.path, route.method.toLowerCase(), 'responses', String(exchange.status), 'headers')}`,
      );
  }

  const mediaType = exchange.responseContentType.split(';')[0].trim();
  const content = response.content?.[mediaType];
  if (!content)
    problems.push(`${name}: media type ${mediaType} not documented (documented: ${Object.keys(response.content ?? {}).join(', ')})`);
  else {
    const ref = pointer(
      'paths',
      route.path,
      route.method.toLowerCase(),
      'responses',
      String(exchange.status),
      'content',
      mediaType,
      'schema',
    );
    const validate = validator(c, content.schema);
    if (!validate(exchange.body)) problems.push(`${name}: answer does not match #/${ref}: ${describeErrors(validate.errors)}`);
    if (exchange.status >= 400 && exchange.body && typeof exchange.body === 'object') {
      // Error answers are open objects in the document; their details must still be documented ones.
      const details = (content.schema.allOf as Array<{ properties?: Record<string, unknown> }> | undefined)?.[1]?.properties ?? {};
      const documented = new Set([...Object.keys(c.document.components.schemas.Error.properties), ...Object.keys(details)]);
      for (const key of Object.keys(exchange.body)) {
        if (!documented.has(key)) problems.push(`${name}: error detail /${key} not documented at #/${ref}/allOf/1/properties`);
      }
    }
  }

  // A request the server accepted must be one the document allows.
  if (exchange.status < 300 && exchange.requestBody !== undefined) {
    const requestType = (exchange.requestContentType ?? '').split(';')[0].trim();
    const text = exchange.requestBody.trim();
    const requestContent = operation.requestBody?.content[requestType];
    if (!operation.requestBody) {
      if (text && text !== '{}') problems.push(`${name}: the request has a body, the operation documents none`);
    } else if (!requestContent) {
      problems.push(`${name}: request media type ${requestType} not documented`);
    } else {
      const ref = pointer('paths', route.path, route.method.toLowerCase(), 'requestBody', 'content', requestType, 'schema');
      const value: unknown =
        requestType === 'application/json' ? (text ? JSON.parse(text) : {}) : Object.fromEntries(new URLSearchParams(text));
      const validate = validator(c, requestContent.schema);
      if (!validate(value)) problems.push(`${name}: accepted request does not match #/${ref}: ${describeErrors(validate.errors)}`);
    }
  }
  return problems;
}
