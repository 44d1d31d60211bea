import { readFileSync } from 'node:fs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../functions/accounts/passwords';
import { ROUTE_DOCS } from '../../functions/api-docs/openapi';
import { db as productDb, tableName } from '../../functions/lib/db';
import { SESSION_COOKIE, startSession } from '../../functions/lib/session';
import type { UserRecord } from '../../functions/lib/user-record';
import { program } from '../../functions/program/content';
import type { DashboardState, ModulePage } from '../../shared/program-types';
import { matchRoute, ROUTES, routeKey } from '../../shared/routes';
import { type JsonBody, useApi } from '../helpers/api';
import { createTestUser } from '../helpers/users';

/**
 * Fuzz test driven by the OpenAPI document (docs/api.md#7-fuzzing): for every route, requests
 * whose path parameters, query strings and bodies are wrong in type, size, encoding and shape,
 * sent as anonymous, learner and admin through the local server (API Gateway events → the real
 * group Lambdas) against DynamoDB Local. The property: never a 5xx, and a refused (4xx) request
 * changes no stored data. Every error code seen must be one the document lists for that route
 * and status, and every success body must match the route's response schema.
 *
 * Budget: FUZZ_RUNS cases in total (1,200 in `npm test`; `npm run fuzz` raises it), spread evenly
 * over the routes. FUZZ_SEED replays a run.
 */
// The cases probe the Lambda chain as fast as they can be sent: API Gateway's route throttles
// (their 429 carries no error code; test/integration/edge-behaviour.test.ts) would only cut
// `npm run fuzz` short on the reset routes, so this server has none.
const unthrottled = { rateLimit: Number.MAX_SAFE_INTEGER, burstLimit: Number.MAX_SAFE_INTEGER };
const api = useApi({ throttles: { stage: unthrottled, routes: {} } });
const TOTAL_RUNS = Number(process.env.FUZZ_RUNS ?? 1200);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const PASSWORD = 'fuzz-Password-2024!';

type Operation = {
  parameters?: Array<{ name: string; in: 'path' | 'query' }>;
  requestBody?: { content: { 'application/json': { schema: { properties?: Record<string, unknown> } } } };
  responses: Record<
    string,
    { content?: { 'application/json': { schema: { allOf?: [unknown, { properties: { error: { enum: string[] } } }] } } } }
  >;
};
const document = JSON.parse(readFileSync(new URL('../../functions/api-docs/openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};
const operations = ROUTES.map((route) => ({
  route,
  key: routeKey(route),
  op: document.paths[route.path]?.[route.method.toLowerCase()],
})).filter(({ op }) => op);
/** Routes the served document does not have yet (test/unit/openapi.test.ts says so too). */
const undocumentedRoutes = ROUTES.map(routeKey).filter((key) => !operations.some((o) => o.key === key));

// ---- the accounts the requests act as and on -------------------------------------------------

type Role = 'anonymous' | 'learner' | 'admin';
interface Cast {
  learner: UserRecord;
  admin: UserRecord;
  /** Another learner: the admin routes' natural target. */
  target: UserRecord;
  cookies: Record<Role, string | undefined>;
  slugs: string[];
  taskIds: string[];
}
let cast: Cast;
let passwordHash: string;

async function cookieFor(user: UserRecord): Promise<string> {
  const { cookie } = await startSession(user);
  return `${SESSION_COOKIE}=${cookie.split(';')[0].slice(SESSION_COOKIE.length + 1)}`;
}

/** After a success that changed state: fresh accounts if a session no longer answers (a logout, a lock, a deletion…). */
async function keepCast() {
  const [learner, admin, target] = await Promise.all([
    send('GET', '/api/auth/me', { cookie: cast.cookies.learner }),
    send('GET', '/api/auth/me', { cookie: cast.cookies.admin }),
    send('GET', `/api/admin/users/${cast.target.id}`, { cookie: cast.cookies.admin }),
  ]);
  if (learner.status !== 200 || admin.status !== 200 || target.json?.status !== 'active') cast = await castAccounts();
}

/** Fresh accounts and sessions: after a request that succeeded in changing state (a logout, a lock…). */
async function castAccounts(): Promise<Cast> {
  const [learner, admin, target] = await Promise.all([
    createTestUser({ password_hash: passwordHash }),
    createTestUser({ role: 'admin', password_hash: passwordHash }),
    createTestUser({ password_hash: passwordHash }),
  ]);
  const cookies: Cast['cookies'] = { anonymous: undefined, learner: await cookieFor(learner), admin: await cookieFor(admin) };
  await send('POST', '/api/enroll', { cookie: cookies.learner, contentType: 'application/json', body: '{}' });
  const state = await send<DashboardState>('GET', '/api/dashboard/state', { cookie: cookies.learner });
  const slugs = (state.json?.grid ?? []).flatMap((week: { modules: Array<{ slug: string }> }) => week.modules.map((m) => m.slug));
  const page = await send<ModulePage>('GET', `/api/modules/${slugs[0]}`, { cookie: cookies.learner });
  const taskIds = (page.json?.module?.tasks ?? []).map((task: { task_id: string }) => task.task_id);
  return { learner, admin, target, cookies, slugs, taskIds };
}

// ---- sending --------------------------------------------------------------------------------

/** `json`: the parsed answer (undefined when empty or not JSON), typed as the caller names it. */
interface Sent<T = JsonBody> {
  status: number;
  json: T | undefined;
  text: string;
}
async function send<T = JsonBody>(
  method: string,
  path: string,
  options: { cookie?: string; contentType?: string; origin?: string; body?: string } = {},
): Promise<Sent<T>> {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  if (options.contentType) headers['content-type'] = options.contentType;
  if (options.origin) headers.origin = options.origin;
  const response = await fetch(`${api.baseUrl}${path}`, { method, headers, body: method === 'GET' ? undefined : options.body });
  const text = await response.text();
  let json: T | undefined;
  try {
    json = text ? (JSON.parse(text) as T) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

// ---- stored data ----------------------------------------------------------------------------

/**
 * Every item of this file's table except audit entries and rate-limit windows, which refused
 * requests write on purpose (a learner at an admin route is audited; failed sign-ins count).
 * A Scan is fine here: a test helper against DynamoDB Local and a table of a few hundred items,
 * never product code (docs/data-model.md); hence its own client: the product's refuses Scan.
 */
const scanner = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    endpoint: process.env.DYNAMODB_ENDPOINT,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  }),
);
afterAll(() => scanner.destroy());
const db = () => scanner;

const timing = { send: 0, snapshot: 0, cast: 0 };
async function snapshot(): Promise<Map<string, string>> {
  const t0 = Date.now();
  try {
    return await snapshotNow();
  } finally {
    timing.snapshot += Date.now() - t0;
  }
}
async function snapshotNow(): Promise<Map<string, string>> {
  const items = new Map<string, string>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new ScanCommand({
        TableName: tableName(),
        ExclusiveStartKey: start,
        FilterExpression: 'NOT begins_with(pk, :audit) AND NOT begins_with(pk, :rate)',
        // audit entries (AUDIT#) and their references (AUDITREF#)
        ExpressionAttributeValues: { ':audit': 'AUDIT', ':rate': 'RATE#' },
      }),
    );
    for (const item of page.Items ?? []) items.set(`${item.pk} | ${item.sk}`, JSON.stringify(item, Object.keys(item).sort()));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

function changes(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [key, value] of after)
    if (before.get(key) !== value) out.push(`${before.has(key) ? 'changed' : 'added'} ${key}: ${value.slice(0, 300)}`);
  for (const key of before.keys()) if (!after.has(key)) out.push(`removed ${key}`);
  return out;
}

/**
 * Every write the product's DynamoDB client completes, by the key it wrote: the per-case check
 * (a Scan per case would cost ~100 ms on a table that grows with every audited refusal). A
 * conditional write that failed changed nothing and is not recorded. The Scan snapshots above
 * back it up once per route.
 */
const writes: string[] = [];
const WRITE = /^(Put|Update|Delete|TransactWrite|BatchWrite)/;
type ItemKey = Record<string, unknown> | undefined;
/** The inputs of the write commands, as far as the recorder reads them. */
interface WriteInput {
  Item?: ItemKey;
  Key?: ItemKey;
  TransactItems?: Array<{ Put?: { Item: ItemKey }; Update?: { Key: ItemKey }; Delete?: { Key: ItemKey } }>;
  RequestItems?: Record<string, Array<{ PutRequest?: { Item: ItemKey }; DeleteRequest?: { Key: ItemKey } }>>;
}
/** A key attribute (always a string in this table) as the low-level client (`{ S }`) or the document client (plain) holds it. */
const keyValue = (value: unknown): string | undefined => {
  const plain = typeof value === 'object' && value !== null && 'S' in value ? value.S : value;
  return typeof plain === 'string' ? plain : undefined;
};
const pkOf = (key: ItemKey): string => `${keyValue(key?.pk) ?? '?'} | ${keyValue(key?.sk) ?? '?'}`;
function writtenKeys(command: string, input: WriteInput): string[] {
  if (/^Put/.test(command)) return [pkOf(input.Item)];
  if (/^(Update|Delete)/.test(command)) return [pkOf(input.Key)];
  if (/^TransactWrite/.test(command))
    return (input.TransactItems ?? []).flatMap((t) =>
      t.Put ? [pkOf(t.Put.Item)] : t.Update ? [pkOf(t.Update.Key)] : t.Delete ? [pkOf(t.Delete.Key)] : [],
    );
  return Object.values(input.RequestItems ?? {}).flatMap((requests) =>
    requests.map((r) => pkOf(r.PutRequest?.Item ?? r.DeleteRequest?.Key)),
  );
}
productDb().middlewareStack.add(
  (next, context) => async (args) => {
    const result = await next(args);
    const command = context.commandName ?? '';
    // the command's name says it is one of the write commands WriteInput describes
    if (WRITE.test(command)) writes.push(...writtenKeys(command, args.input as WriteInput));
    return result;
  },
  { step: 'initialize', name: 'fuzzWriteRecorder' },
);
/** Writes a refused request may make on purpose: its audit entry and references, a rate-limit window. */
const allowedOnRefusal = (key: string) => key.startsWith('AUDIT#') || key.startsWith('AUDITREF#') || key.startsWith('RATE#');

/** Rate-limit windows filled by earlier cases would turn later valid-looking requests into 429s. */
async function clearRateLimits() {
  const page = await db().send(
    new ScanCommand({
      TableName: tableName(),
      FilterExpression: 'begins_with(pk, :rate)',
      ExpressionAttributeValues: { ':rate': 'RATE#' },
      ProjectionExpression: 'pk, sk',
    }),
  );
  const items = page.Items ?? [];
  for (let i = 0; i < items.length; i += 25) {
    await db().send(
      new BatchWriteCommand({ RequestItems: { [tableName()]: items.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } })) } }),
    );
  }
}

// ---- generators -----------------------------------------------------------------------------

/** Path segments and query values that break decoding, routing or naive parsers; inserted raw. */
const RAW_TOKENS = [
  '%',
  '%%',
  '%zz',
  '%E0%A4%A',
  '%C0%AF',
  '%FF%FE',
  '%00',
  '%2e%2e',
  '%2F',
  '..',
  '.',
  '%u0041',
  '%%30%30',
  '%25',
  '%0A',
  '%0d%0a',
];
const STRANGE = [
  '',
  ' ',
  '\u0000',
  '\uFEFF',
  '\u202Egnp.exe',
  '🙂'.repeat(8),
  'ǅ̴̢̛̙̝͖',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  '-1',
  '0',
  '1e309',
  '0x10',
  'true',
  '[]',
  '{}',
];

const hugeString = fc.integer({ min: 1_000, max: 70_000 }).map((n) => 'a'.repeat(n));
const deepObject = fc.integer({ min: 20, max: 400 }).map((depth) => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
});
const deepArray = fc.integer({ min: 20, max: 400 }).map((depth) => {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
});
const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 2, arbitrary: fc.constantFrom(...STRANGE) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double()).map(String) },
);
/** Bodies may be huge (the 64 KB limit); paths and queries stay under Node's 16 KB request line. */
const bodyText = fc.oneof({ weight: 12, arbitrary: text }, { weight: 1, arbitrary: hugeString });
const longSegment = fc.integer({ min: 300, max: 3_000 }).map((n) => 'b'.repeat(n));

type Ref =
  'learnerId' | 'adminId' | 'targetId' | 'learnerEmail' | 'adminEmail' | 'slug' | 'taskId' | 'targetIdWithBreak' | 'learnerEmailWithBreak';
/** A value resolved against the current accounts when the request is sent (they change after a success). */
const ref = (name: Ref) => fc.constant({ ref: name });
const resolve = (value: unknown): unknown => {
  if (value && typeof value === 'object' && 'ref' in value) {
    const name = (value as { ref: Ref }).ref;
    return {
      learnerId: cast.learner.id,
      adminId: cast.admin.id,
      targetId: cast.target.id,
      learnerEmail: cast.learner.email,
      adminEmail: cast.admin.email,
      slug: cast.slugs[0] ?? 'week-1',
      taskId: cast.taskIds[0] ?? 'task',
      // a real id or address with a line break: the key it would make is a real one's, broken
      targetIdWithBreak: `${cast.target.id}\n`,
      learnerEmailWithBreak: cast.learner.email.replace('@', '\n@'),
    }[name];
  }
  if (Array.isArray(value)) return value.map(resolve);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
  return value;
};

/**
 * Values that would become part of a DynamoDB key if a route let them through
 * (docs/security.md#values-that-become-keys): addresses and ids with a control character or a
 * line break (IAM's key patterns do not match one), longer than a key may be (2,048 bytes for a
 * partition key, 1,024 for a sort key), ids of another shape than the product issues.
 */
const CONTROL_CHARACTERS = ['\n', '\r', '\r\n', '\t', '\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u2028', '\u2029'];
const keyShape: fc.Arbitrary<unknown> = fc.oneof(
  fc.tuple(fc.constantFrom(...CONTROL_CHARACTERS), fc.constantFrom('', 'x')).map(([control, x]) => `fuzz${control}${x}@example.com`),
  fc.integer({ min: 2_049, max: 4_000 }).map((n) => `${'e'.repeat(n)}@example.com`),
  fc.integer({ min: 1_025, max: 4_000 }).map((n) => 'i'.repeat(n)),
  fc.constantFrom('not-a-uuid', '00000000-0000-0000-0000-00000000000g', '00000000-0000-0000-0000-000000000000\n', 'a'.repeat(15)),
  fc.oneof(ref('targetIdWithBreak'), ref('learnerEmailWithBreak')),
);

/** A JSON value of the wrong (or occasionally the right) type, size or shape. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: bodyText },
  { weight: 2, arbitrary: keyShape },
  { weight: 1, arbitrary: fc.constantFrom(PASSWORD, '123456', 'a@b.co', 'daily', 'weekly', 'off', true) },
  { weight: 1, arbitrary: fc.oneof(ref('learnerEmail'), ref('adminEmail'), ref('targetId'), ref('slug')) },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null)) },
  { weight: 1, arbitrary: fc.array(fc.string({ maxLength: 10 }), { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.oneof(deepObject, deepArray) },
);

const pathValue = fc.oneof(
  { weight: 3, arbitrary: text.map((value) => encodeURIComponent(value)) },
  { weight: 3, arbitrary: fc.constantFrom(...RAW_TOKENS) },
  { weight: 1, arbitrary: longSegment },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.string({ maxLength: 6 }), fc.constantFrom(...RAW_TOKENS)).map(([a, b]) => `${encodeURIComponent(a)}${b}`),
  },
  { weight: 2, arbitrary: fc.oneof(ref('learnerId'), ref('adminId'), ref('targetId'), ref('slug'), ref('taskId')) },
  // encoded now, or (an account's id broken) resolved and encoded when the request is sent
  { weight: 1, arbitrary: keyShape.map((value) => (typeof value === 'string' ? encodeURIComponent(value) : value)) },
);

const queryString = (names: string[]) =>
  fc
    .array(
      fc.tuple(
        fc.oneof(
          { weight: 4, arbitrary: names.length ? fc.constantFrom(...names) : fc.string({ maxLength: 8 }) },
          { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
        ),
        fc.oneof(
          { weight: 4, arbitrary: text.map((value) => encodeURIComponent(value)) },
          {
            weight: 2,
            arbitrary: fc.constantFrom(...RAW_TOKENS, '1', '2', '25', '100', '1001', '-5', '2024-02-30', '2024-01-01', 'all', 'unverified'),
          },
          { weight: 1, arbitrary: longSegment },
          { weight: 1, arbitrary: keyShape.filter((value): value is string => typeof value === 'string').map(encodeURIComponent) },
        ),
      ),
      { maxLength: 6 },
    )
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&')}` : ''));

/** Bodies: an object with the schema's fields wrong or missing plus extra ones, or not an object at all. */
const bodyOf = (names: string[]) =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(
          fc.record(Object.fromEntries(names.map((name) => [name, anyValue])), { requiredKeys: [] }),
          fc.dictionary(fc.string({ maxLength: 10 }), anyValue, { maxKeys: 3 }),
        )
        .map(([fields, extra]) => ({ json: { ...extra, ...fields } })),
    },
    { weight: 2, arbitrary: anyValue.map((json) => ({ json })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '{',
        '{"a":',
        'nul',
        '[1,2',
        '\uFEFF{}',
        '{"__proto__":{"role":"admin"}}',
        '{"a":1,"a":2}',
        'NaN',
        "{'a':1}",
        '\u0000',
      ),
    },
  );

interface Case {
  role: Role;
  params: unknown[];
  query: string;
  body: { json: unknown } | string | undefined;
  contentType: string | undefined;
  origin: string | undefined;
  /** Anonymous requests sometimes carry a forged or broken session cookie. */
  forgedCookie: string | undefined;
}

const caseOf = (paramCount: number, queryNames: string[], bodyNames: string[] | undefined, stateChanging: boolean): fc.Arbitrary<Case> =>
  fc.record({
    role: fc.constantFrom<Role>('anonymous', 'learner', 'admin'),
    params: fc.array(pathValue, { minLength: paramCount, maxLength: paramCount }),
    query: queryString(queryNames),
    body: stateChanging ? fc.option(bodyOf(bodyNames ?? []), { nil: undefined, freq: 6 }) : fc.constant(undefined),
    contentType: fc.oneof(
      { weight: 8, arbitrary: fc.constant('application/json') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          undefined,
          'text/plain',
          'application/json; charset=utf-16',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
        ),
      },
    ),
    origin: fc.oneof(
      { weight: 8, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom('http://localhost:3000', 'https://evil.example', 'null') },
    ),
    forgedCookie: fc.oneof(
      { weight: 2, arbitrary: fc.constant(undefined) },
      fc.oneof(
        fc.string({ maxLength: 60 }).map((value) => `${SESSION_COOKIE}=${encodeURIComponent(value)}`),
        fc.constantFrom(
          `${SESSION_COOKIE}=eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.`,
          `${SESSION_COOKIE}=a.b.c`,
          `${SESSION_COOKIE}=%`,
          `${SESSION_COOKIE}`,
          `${SESSION_COOKIE}=x; ${SESSION_COOKIE}=y`,
          '=; ;;',
          `${SESSION_COOKIE}=${'a'.repeat(5000)}`,
        ),
      ),
    ),
  });

// ---- the property ---------------------------------------------------------------------------

const undocumented = new Set<string>();
const schemaMismatches = new Set<string>();
const statusCounts = new Map<number, number>();
let cases = 0;
let throttled = 0;
let successfulWrites = 0;

describe('the API under generated bad input (OpenAPI-driven fuzz)', () => {
  beforeAll(async () => {
    passwordHash = await hashPassword(PASSWORD);
    cast = await castAccounts();
  });

  it(
    `never answers 5xx, and a refused request changes no stored data (${TOTAL_RUNS} cases over ${operations.length} routes)`,
    { timeout: 600_000 },
    async () => {
      const runsPerRoute = Math.max(10, Math.ceil(TOTAL_RUNS / operations.length));
      const started = Date.now();
      let stored = await snapshot();
      for (const { route, key, op } of operations) {
        const paramNames = [...route.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);
        const queryNames = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        const bodyNames = op.requestBody ? Object.keys(op.requestBody.content['application/json'].schema.properties ?? {}) : undefined;
        const stateChanging = route.method !== 'GET';
        await fc.assert(
          fc.asyncProperty(caseOf(paramNames.length, queryNames, bodyNames, stateChanging), async (c) => {
            cases += 1;
            let i = 0;
            // Generated segments are sent as generated (encoded, or raw malformed escapes); account ids and slugs encoded.
            const path = route.path.replace(/\{[a-z_]+\}/g, () => {
              const raw = c.params[i++];
              return typeof raw === 'string' ? raw : encodeURIComponent(String(resolve(raw)));
            });
            const body =
              c.body === undefined ? undefined : typeof c.body === 'string' ? c.body : (JSON.stringify(resolve(c.body.json)) ?? '');
            const t0 = Date.now();
            writes.length = 0;
            const answer = await send(route.method, `${path}${c.query}`, {
              cookie: c.role === 'anonymous' ? c.forgedCookie : cast.cookies[c.role],
              contentType: body === undefined ? undefined : c.contentType,
              origin: c.origin,
              body,
            });
            timing.send += Date.now() - t0;
            statusCounts.set(answer.status, (statusCounts.get(answer.status) ?? 0) + 1);
            const shown = `${route.method} ${path.slice(0, 200)}${c.query.slice(0, 200)} as ${c.role}${c.forgedCookie && c.role === 'anonymous' ? ` cookie ${c.forgedCookie.slice(0, 80)}` : ''} body ${String(body).slice(0, 200)}`;
            if (answer.status >= 500) throw new Error(`${answer.status} ${answer.text.slice(0, 200)} for ${shown}`);
            // The route that actually served it: the URL parser folds dot segments ('.', '%2e%2e'),
            // so /api/admin/users/%2e%2e/audit-logs is GET /api/admin/audit-logs.
            let served: { key: string; op: Operation; doc: (typeof ROUTE_DOCS)['auth'][string] | undefined } | undefined;
            try {
              const match = matchRoute(route.method, new URL(`${api.baseUrl}${path}`).pathname);
              if (match.route)
                served = {
                  key: routeKey(match.route),
                  op: document.paths[match.route.path][route.method.toLowerCase()],
                  doc: ROUTE_DOCS[match.route.group][routeKey(match.route)],
                };
            } catch {
              served = undefined;
            }

            if (answer.status >= 400) {
              if (answer.status === 429) throttled += 1;
              const error = answer.json?.error;
              const code = typeof error === 'string' ? error : undefined;
              // A malformed escape is refused before routing (400 invalid_path): the intended route's list applies.
              served ??= { key, op, doc: ROUTE_DOCS[route.group][key] };
              const listed =
                served.op.responses[String(answer.status)]?.content?.['application/json'].schema.allOf?.[1].properties.error.enum ?? [];
              // The local server's own answers: a path that no longer matches the route after
              // decoding (404/405), a request line over Node's header limit (431, no body).
              const router = (answer.status === 404 && code === 'not_found') || answer.status === 405 || answer.status === 431;
              if (!router && (code === undefined || !listed.includes(code)))
                undocumented.add(`${served.key}: ${answer.status} ${code ?? answer.text.slice(0, 60)}`);
              const written = writes.filter((key) => !allowedOnRefusal(key));
              if (written.length) throw new Error(`refused with ${answer.status} ${code} but wrote ${written.join(', ')} for ${shown}`);
              if (answer.status === 429) await clearRateLimits();
              return;
            }

            const schema = served?.doc?.responses[answer.status as 200];
            if (!schema) undocumented.add(`${served?.key ?? key}: success status ${answer.status} not in the document`);
            else if (!schema.safeParse(served?.doc?.contentType ? answer.text : answer.json).success)
              schemaMismatches.add(
                `${served?.key} ${answer.status}: ${JSON.stringify(schema.safeParse(answer.json).error?.issues.slice(0, 3))} answer ${answer.text.slice(0, 300)} for ${shown}`,
              );
            // A success may change data and end sessions (logout, a lock): start from fresh accounts.
            const t1 = Date.now();
            // Only a success that wrote more than audit or rate-limit items can have changed the cast.
            if (stateChanging && writes.some((written) => !allowedOnRefusal(written))) {
              successfulWrites += 1;
              await keepCast();
              stored = await snapshot();
            }
            timing.cast += Date.now() - t1;
          }),
          { numRuns: runsPerRoute, seed: SEED, endOnFailure: true },
        );
        // Belt and braces: the whole table (bar audit and rate-limit items) after the route's
        // cases equals the one before, or after its last success.
        const after = await snapshot();
        const changed = changes(stored, after);
        expect(changed, `stored data changed while fuzzing ${key} with refused requests`).toEqual([]);
      }
      const seconds = (Date.now() - started) / 1000;
      console.log(
        `fuzz: ${cases} cases over ${operations.length} routes in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...statusCounts].sort(([a], [b]) => a - b)))}; ${throttled} throttled; ms ${JSON.stringify(timing)}`,
      );
      // the recorder sees writes (successes that wrote), so its silence on refusals means something
      expect(successfulWrites).toBeGreaterThan(0);
      expect(cases).toBeGreaterThanOrEqual(Math.min(TOTAL_RUNS, 1000));
      // Rate limits must not make the run meaningless: most cases reach validation or the domain.
      expect(throttled / cases).toBeLessThan(0.05);
    },
  );

  it(
    'puts each key-breaking value in every field, query parameter and path segment of every route: never 5xx, nothing written on a refusal',
    { timeout: 600_000 },
    async () => {
      // Values a key would be made of (keyShape above), each sent once per input, the request's
      // other inputs plausible so the value gets as far as it can.
      const shapes = (): string[] => [
        'fuzz\n@example.com',
        'fuzz\u2028x@example.com',
        'fuzz\u0000x@example.com',
        `${'e'.repeat(2_049)}@example.com`,
        'not-a-uuid',
        `${cast.target.id}\n`,
      ];
      const plausible = (): Record<string, unknown> => ({
        email: cast.learner.email,
        password: PASSWORD,
        passwordConfirm: PASSWORD,
        password2: PASSWORD,
        current_password: PASSWORD,
        code: '123456',
        challenge_id: 'a'.repeat(24),
        user_id: cast.target.id,
        module_id: program().modules[0].module_id,
        first_name: 'Key',
        last_name: 'Shape',
        name: 'Key shape',
        token: 'x'.repeat(43),
        reason: 'key shape',
        done: true,
      });
      const pathDefaults = (): Record<string, string> => ({
        id: cast.target.id,
        slug: cast.slugs[0] ?? 'week-1',
        task_id: cast.taskIds[0] ?? 'task',
        passkey_id: 'p'.repeat(43),
        version: '1',
        code: 'ABCD-EFGH-JKMN',
      });
      let sweepCases = 0;
      let stored = await snapshot();
      for (const { route, key, op } of operations) {
        const paramNames = [...route.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);
        const queryNames = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        const bodyNames = op.requestBody ? Object.keys(op.requestBody.content['application/json'].schema.properties ?? {}) : [];
        const role: Role = route.access === 'admin' ? 'admin' : route.access === 'session' ? 'learner' : 'anonymous';
        const inputs = [
          ...paramNames.map((name) => ({ in: 'path' as const, name })),
          ...queryNames.map((name) => ({ in: 'query' as const, name })),
          ...bodyNames.map((name) => ({ in: 'body' as const, name })),
        ];
        for (const input of inputs) {
          for (const shape of shapes()) {
            sweepCases += 1;
            const params = { ...pathDefaults(), ...(input.in === 'path' ? { [input.name]: shape } : {}) };
            const path = route.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => encodeURIComponent(params[name]));
            const query = input.in === 'query' ? `?${encodeURIComponent(input.name)}=${encodeURIComponent(shape)}` : '';
            const defaults = plausible();
            const body =
              route.method === 'GET'
                ? undefined
                : JSON.stringify({
                    ...Object.fromEntries(bodyNames.filter((name) => defaults[name] !== undefined).map((name) => [name, defaults[name]])),
                    ...(input.in === 'body' ? { [input.name]: shape } : {}),
                  });
            writes.length = 0;
            const answer = await send(route.method, `${path}${query}`, {
              cookie: cast.cookies[role],
              contentType: body === undefined ? undefined : 'application/json',
              body,
            });
            const shown = `${route.method} ${path.slice(0, 120)}${query.slice(0, 120)} as ${role}, ${input.in} ${input.name} = ${JSON.stringify(shape).slice(0, 40)}`;
            expect(answer.status, `${answer.text.slice(0, 200)} for ${shown}`).toBeLessThan(500);
            if (answer.status >= 400) {
              const code = typeof answer.json?.error === 'string' ? answer.json.error : undefined;
              const listed =
                op.responses[String(answer.status)]?.content?.['application/json'].schema.allOf?.[1].properties.error.enum ?? [];
              const router = (answer.status === 404 && code === 'not_found') || answer.status === 405;
              if (!router && (code === undefined || !listed.includes(code)))
                undocumented.add(`${key}: ${answer.status} ${code ?? answer.text.slice(0, 60)}`);
              const written = writes.filter((written) => !allowedOnRefusal(written));
              expect(written, `refused with ${answer.status} ${code} but wrote for ${shown}`).toEqual([]);
              if (answer.status === 429) await clearRateLimits();
            } else if (route.method !== 'GET' && writes.some((written) => !allowedOnRefusal(written))) {
              await keepCast();
              stored = await snapshot();
            }
          }
        }
        expect(changes(stored, await snapshot()), `stored data changed while sweeping ${key} with refused requests`).toEqual([]);
      }
      console.log(`fuzz: key-breaking values, ${sweepCases} requests over ${operations.length} routes`);
      expect(sweepCases).toBeGreaterThan(operations.length);
    },
  );

  it('fuzzes every route of the table (functions/api-docs/openapi.json is current: `npm run openapi`)', () => {
    expect(undocumentedRoutes).toEqual([]);
  });

  it('sees only error codes the OpenAPI document lists for the route and status', () => {
    expect([...undocumented].sort(), 'add these codes to the route in shared/api-schemas/<group>.ts, then `npm run openapi`').toEqual([]);
  });

  it('sees success bodies that match the documented response schemas', () => {
    expect([...schemaMismatches]).toEqual([]);
  });
});
