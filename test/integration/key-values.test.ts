import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { startLogin } from '../../functions/accounts/login';
import { auditLog } from '../../functions/admin/audit-log';
import { db } from '../../functions/lib/db';
import { getUserByEmail } from '../../functions/lib/users';
import { program } from '../../functions/program/content';
import { registerLocalTwin } from '../../functions/lib/local-twin';
import { installIamTwin } from '../../infra/local/iam/install';
import type { TwinIamModel } from '../../infra/local/iam/model';
import { IamTwin, runAs } from '../../infra/local/iam/twin';
import { type ApiClient, useApi } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';

/**
 * Values that become part of a DynamoDB key (docs/security.md#values-that-become-keys): a line
 * break or another control character, a value longer than a key may be, an id of another shape
 * than the product issues. Each is refused with the route's 4xx and its code before any read or
 * write: without the rule, a line break escapes IAM's key patterns and an over-long key is
 * DynamoDB's ValidationException, both a 500.
 */
const api = useApi();
/** In every bad value, so a sent call that carries it can be found. */
const MARK = 'zq7k';
const CONTROL = ['\n', '\r\n', '\u2028', '\u0000', '\u0085', '\u001b'];
const badEmails = [
  ...CONTROL.map((control) => `${MARK}${control}x@example.com`),
  `${MARK}${'x'.repeat(2049)}@example.com`,
  `${MARK}-no-at-sign`,
];
const badUserIds = [...CONTROL.map((control) => `${randomUUID()}${control}${MARK}`), `${MARK}${'u'.repeat(2049)}`, `${MARK}-not-a-uuid`];

/** Every DynamoDB call the product's client sends, as text: a refused value must appear in none. */
const sent: string[] = [];
db().middlewareStack.add(
  (next) => (args) => {
    sent.push(JSON.stringify(args.input));
    return next(args);
  },
  { step: 'initialize', name: 'keyValuesRecorder' },
);
const carriedTheValue = () => sent.filter((input) => input.includes(MARK));

let admin: ApiClient;
let learner: ApiClient;
let learnerId: string;
beforeAll(async () => {
  admin = api.client();
  await signIn(admin, await createTestUser({ role: 'admin' }));
  const user = await createTestUser();
  learnerId = user.id;
  learner = api.client();
  await signIn(learner, user);
  expect((await learner.post('/api/enroll')).status).toBe(200);
});

async function refused(
  client: ApiClient,
  method: string,
  path: string,
  body: unknown,
  expected: { status: number; error: string; fields?: string[] },
) {
  sent.length = 0;
  const response = await client.request(method, path, body);
  const label = `${method} ${path.slice(0, 80)} ${JSON.stringify(body)?.slice(0, 80)}`;
  expect([response.status, response.body?.error], label).toEqual([expected.status, expected.error]);
  if (expected.fields) expect(response.body?.fields, label).toEqual(expected.fields);
  expect(carriedTheValue(), `${label}: nothing read or written with it`).toEqual([]);
}

describe('an email that would become a key', () => {
  const PASSWORD = 'some password here';
  const routes: Array<[string, (email: string) => unknown]> = [
    ['/api/auth/login', (email) => ({ email, password: PASSWORD })],
    ['/api/auth/restore', (email) => ({ email, password: PASSWORD })],
    ['/api/auth/password-reset/request', (email) => ({ email })],
    ['/api/auth/verify-email', (email) => ({ email, code: '123456' })],
    ['/api/auth/resend-verification', (email) => ({ email })],
    ['/api/auth/verify-2fa', (email) => ({ email, code: '123456', challenge_id: 'a'.repeat(24) })],
    ['/api/auth/resend-2fa', (email) => ({ email, challenge_id: 'a'.repeat(24) })],
    ['/api/auth/restore/verify', (email) => ({ email, code: '123456', challenge_id: 'a'.repeat(24) })],
  ];

  it('is 400 invalid_email on every route that takes one, with nothing read or written', async () => {
    for (const [path, body] of routes)
      for (const email of badEmails) await refused(api.client(), 'POST', path, body(email), { status: 400, error: 'invalid_email' });
    // Why: unchecked, the address reaches its key, and the IAM twin refuses the call as IAM would
    // (the role's `EMAIL#*` does not match a line break): AccessDenied, a 500.
    // (a twin of its own, which records nothing: the run's twin fails the run on any refused call)
    const model = JSON.parse(readFileSync(inject('iamModelFile'), 'utf8')) as TwinIamModel;
    const twin = new IamTwin(model);
    registerLocalTwin(twin);
    try {
      const signIn = runAs('auth', () =>
        startLogin({ email: `a\n${MARK}@example.com`, password: PASSWORD }, { ip: '203.0.113.9', userAgent: 'test' }),
      );
      await expect(signIn).rejects.toMatchObject({ name: 'AccessDeniedException' });
      expect(twin.deniedCalls[0]).toMatchObject({
        fn: 'auth',
        leadingKeys: expect.arrayContaining([`EMAIL#a\n${MARK}@example.com`]) as unknown,
      });
    } finally {
      await installIamTwin({ model });
    }
  });

  it('registers no account and edits no profile with a control character in the address', async () => {
    const names = { first_name: 'Key', last_name: 'Values', password: PASSWORD, passwordConfirm: PASSWORD };
    for (const email of badEmails.slice(0, CONTROL.length)) {
      await refused(api.client(), 'POST', '/api/auth/register', { ...names, email }, { status: 400, error: 'invalid_email' });
      expect(await getUserByEmail(email)).toBeUndefined();
      await refused(admin, 'PATCH', `/api/admin/users/${learnerId}`, { email }, { status: 400, error: 'invalid_email' });
    }
  });
});

describe("an account id in a module override's body", () => {
  const [first] = program().modules;
  const actions = ['force-complete', 'reopen', 'lock', 'unlock'];

  it('is 400 invalid_request naming user_id unless it is an id the product issues, with nothing read', async () => {
    for (const action of actions)
      for (const userId of badUserIds)
        await refused(
          admin,
          'POST',
          `/api/admin/modules/${action}`,
          { user_id: userId, module_id: first.module_id },
          {
            status: 400,
            error: 'invalid_request',
            fields: ['user_id'],
          },
        );
  });

  it('is 400 invalid_request naming module_id for a module id of another shape', async () => {
    for (const moduleId of [`${MARK}\nx`, `${MARK}${'m'.repeat(65)}`, `${MARK}-UPPER`])
      await refused(
        admin,
        'POST',
        '/api/admin/modules/force-complete',
        { user_id: learnerId, module_id: moduleId },
        {
          status: 400,
          error: 'invalid_request',
          fields: ['module_id'],
        },
      );
  });
});

describe('an account id in an admin path', () => {
  it('names nothing unless it is a UUID: 404 not_found before any read', async () => {
    const paths = ['', '/hard-delete/preview', '/hard-delete/status', '/audit-logs', '/passkeys'];
    for (const suffix of paths)
      for (const id of [`${MARK}-not-a-uuid`, `${randomUUID()}${MARK}`])
        await refused(admin, 'GET', `/api/admin/users/${encodeURIComponent(id)}${suffix}`, undefined, { status: 404, error: 'not_found' });
    for (const action of ['lock', 'unlock', 'restore', 'reset-password', 'actions/invalidate-sessions'])
      await refused(admin, 'POST', `/api/admin/users/${MARK}-not-a-uuid/${action}`, {}, { status: 404, error: 'not_found' });
  });
});

describe('free text that becomes part of a key', () => {
  it('is 400 invalid_request with a control character or a line break (the audit filters, the user search)', async () => {
    for (const control of CONTROL) {
      const value = encodeURIComponent(`${MARK}${control}x`);
      for (const filter of ['actor', 'entity_id', 'entity_type', 'action'])
        await refused(admin, 'GET', `/api/admin/audit-logs?${filter}=${value}`, undefined, {
          status: 400,
          error: 'invalid_request',
          fields: [filter],
        });
      await refused(admin, 'GET', `/api/admin/audit-logs?actor=${encodeURIComponent(`@${MARK}${control}.io`)}`, undefined, {
        status: 400,
        error: 'invalid_request',
        fields: ['actor'],
      });
      await refused(admin, 'GET', `/api/admin/audit-logs/export.csv?entity_id=${value}`, undefined, {
        status: 400,
        error: 'invalid_request',
        fields: ['entity_id'],
      });
      for (const path of ['/api/admin/users', '/api/admin/users/export.csv'])
        await refused(admin, 'GET', `${path}?query=${value}`, undefined, { status: 400, error: 'invalid_request', fields: ['query'] });
    }
  });

  it('longer than a key may be: refused by the route, and by the local twin as DynamoDB does when it gets through', async () => {
    const long = `${MARK}${'e'.repeat(3000)}`;
    await refused(admin, 'GET', `/api/admin/audit-logs?entity_type=user&entity_id=${long}`, undefined, {
      status: 400,
      error: 'invalid_request',
      fields: ['entity_id'],
    });
    // Without the route's rule: DynamoDB Local answers this Query with an empty page; DynamoDB
    // (and the twin) refuse a partition key over 2,048 bytes, which the route would answer 500.
    await expect(runAs('admin', () => auditLog({ entity_type: 'user', entity_id: long }))).rejects.toMatchObject({
      name: 'ValidationException',
      $metadata: { httpStatusCode: 400 },
    });
  });
});
