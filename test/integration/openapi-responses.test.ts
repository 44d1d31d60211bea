import { beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../functions/accounts/passwords';
import { errorCodes, ROUTE_DOCS } from '../../functions/api-docs/openapi';
import { groupRoutes } from '../../infra/ops/generate-openapi';
import { errorBody } from '../../shared/api-schemas/common';
import type { DashboardState, ModulePage } from '../../shared/program-types';
import { ROUTES, routeKey } from '../../shared/routes';
import { type ApiClient, type ApiResponse, type JsonBody, useApi } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';

/**
 * The OpenAPI reference against what the routes really answer (docs/api.md#6-the-openapi-document):
 * real calls of every group, each answer checked against the documented response schema for its
 * status, or, for an error, against the codes the document lists for that route and status.
 */
const api = useApi();

/** What this test reads of the served document: each path's operations by method. */
interface OpenApiDocument {
  openapi: string;
  paths: Partial<Record<string, Record<string, unknown>>>;
}

/** Each group's route implementations (their declared errors count as documented). */
let routes: Awaited<ReturnType<typeof groupRoutes>>;
beforeAll(async () => {
  routes = await groupRoutes();
});

function expectDocumented<T>(key: string, response: ApiResponse<T>) {
  const route = ROUTES.find((r) => routeKey(r) === key);
  expect(route, key).toBeDefined();
  const doc = ROUTE_DOCS[route!.group][key];
  if (response.status < 400) {
    const schema = doc.responses[response.status as 200];
    expect(schema, `${key}: ${response.status} is not a documented success status`).toBeDefined();
    const parsed = schema!.safeParse(doc.contentType ? String(response.body) : response.body);
    expect(parsed.success, `${key} ${response.status}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
  } else {
    const codes = errorCodes(route!, routes.get(route!.group)?.[key], doc).get(response.status);
    expect([...(codes ?? [])], `${key}: ${response.status} ${JSON.stringify(response.body)}`).toContain(
      errorBody.safeParse(response.body).data?.error,
    );
  }
  return response;
}

async function call<T = JsonBody>(client: ApiClient, key: string, path: string, body?: unknown) {
  const [method] = key.split(' ');
  return expectDocumented(
    key,
    await client.request<T>(method, path, method === 'GET' || (method === 'DELETE' && body === undefined) ? undefined : (body ?? {})),
  );
}

describe('GET /api/openapi.json', () => {
  it('serves the OpenAPI 3.1 document, without a session, with every route of the table', async () => {
    const response = await call<OpenApiDocument>(api.client(), 'GET /api/openapi.json', '/api/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    for (const route of ROUTES) expect(response.body.paths[route.path]?.[route.method.toLowerCase()], routeKey(route)).toBeDefined();
  });
});

describe('documented answers match real ones', () => {
  it('auth and passkeys group', async () => {
    const anonymous = api.client();
    expect((await call(anonymous, 'GET /api/health', '/api/health')).status).toBe(200);
    expect((await call(anonymous, 'GET /api/auth/me', '/api/auth/me')).status).toBe(401);
    const email = `openapi-${Date.now()}@example.com`;
    const registered = await call(anonymous, 'POST /api/auth/register', '/api/auth/register', {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email,
      password: 'a-Long-enough-passw0rd',
      passwordConfirm: 'a-Long-enough-passw0rd',
    });
    expect(registered.status).toBe(201);
    expect((await call(anonymous, 'POST /api/auth/register', '/api/auth/register', { first_name: 'Ada' })).status).toBe(400);
    expect((await call(anonymous, 'POST /api/auth/verify-email', '/api/auth/verify-email', { email, code: '000000' })).status).toBe(400);
    expect((await call(anonymous, 'POST /api/auth/resend-verification', '/api/auth/resend-verification', { email })).status).toBe(202);
    expect((await call(anonymous, 'POST /api/auth/password-reset/request', '/api/auth/password-reset/request', { email })).status).toBe(
      200,
    );
    expect((await call(anonymous, 'GET /api/auth/password-reset/validate', '/api/auth/password-reset/validate?token=nope')).status).toBe(
      400,
    );
    expect((await call(anonymous, 'GET /api/certificates/{code}', '/api/certificates/NOPE-NOPE')).status).toBe(404);
    expect(
      (await call(anonymous, 'POST /api/auth/passkeys/authentication/options', '/api/auth/passkeys/authentication/options')).status,
    ).toBe(200);
    expect((await call(anonymous, 'POST /api/auth/passkeys/removal', '/api/auth/passkeys/removal', { token: 'not.a.token' })).status).toBe(
      400,
    );

    const user = await createTestUser({ password_hash: await hashPassword('a-Long-enough-passw0rd') });
    const login = await call(anonymous, 'POST /api/auth/login', '/api/auth/login', {
      email: user.email,
      password: 'a-Long-enough-passw0rd',
    });
    expect(login.status).toBe(200);
    expect(
      (await call(anonymous, 'POST /api/auth/login', '/api/auth/login', { email: user.email, password: 'wrong-password-here' })).status,
    ).toBe(401);

    const learner = api.client();
    await signIn(learner, user);
    expect((await call(learner, 'GET /api/auth/me', '/api/auth/me')).status).toBe(200);
    expect((await call(learner, 'GET /api/auth/sessions', '/api/auth/sessions')).status).toBe(200);
    const proof = { current_password: 'a-Long-enough-passw0rd' };
    // a session id of the shape the product issues, of no session
    const noSession = `/api/auth/sessions/${'n'.repeat(24)}`;
    expect((await call(learner, 'DELETE /api/auth/sessions/{id}', noSession, {})).status).toBe(403);
    expect((await call(learner, 'DELETE /api/auth/sessions/{id}', noSession, proof)).status).toBe(404);
    expect((await call(learner, 'POST /api/auth/sessions/revoke-others', '/api/auth/sessions/revoke-others', proof)).status).toBe(200);
    expect((await call(learner, 'GET /api/auth/passkeys', '/api/auth/passkeys')).status).toBe(200);
    expect((await call(learner, 'PATCH /api/auth/passkeys/{id}', '/api/auth/passkeys/nope', { name: 'Laptop' })).status).toBe(404);
    expect(
      (await call(learner, 'POST /api/auth/passkeys/confirmation/options', '/api/auth/passkeys/confirmation/options', {})).status,
    ).toBe(404);
    expect(
      (await call(learner, 'POST /api/auth/passkeys/registration/options', '/api/auth/passkeys/registration/options', {})).status,
    ).toBe(403);
    expect((await call(learner, 'POST /api/auth/logout', '/api/auth/logout')).status).toBe(200);
  });

  it('learner group', async () => {
    const user = await createTestUser({ password_hash: await hashPassword('a-Long-enough-passw0rd') });
    const learner = api.client();
    await signIn(learner, user);
    expect((await call(learner, 'GET /api/dashboard', '/api/dashboard')).status).toBe(404);
    expect((await call(learner, 'POST /api/enroll', '/api/enroll')).status).toBe(200);
    expect((await call(learner, 'GET /api/dashboard', '/api/dashboard')).status).toBe(200);
    const state = await call<DashboardState>(learner, 'GET /api/dashboard/state', '/api/dashboard/state');
    const slug = state.body.open_module!.slug;
    const page = await call<ModulePage>(learner, 'GET /api/modules/{slug}', `/api/modules/${slug}`);
    const task = page.body.module.tasks[0];
    const save = await call(
      learner,
      'PUT /api/modules/{slug}/tasks/{task_id}',
      `/api/modules/${slug}/tasks/${task.task_id}`,
      task.type === 'checkbox' ? { done: true } : { answer: 'An answer.' },
    );
    expect(save.status).toBe(200);
    expect((await call(learner, 'GET /api/modules/{slug}', '/api/modules/no-such-module')).status).toBe(404);
    const lastSlug = state.body.grid.at(-1)!.modules.at(-1)!.slug;
    expect((await call(learner, 'GET /api/modules/{slug}', `/api/modules/${lastSlug}`)).status).toBe(403);
    expect((await call(learner, 'GET /api/settings/notifications', '/api/settings/notifications')).status).toBe(200);
    expect(
      (await call(learner, 'POST /api/settings/notifications', '/api/settings/notifications', { reminder_frequency: 'hourly' })).status,
    ).toBe(400);
    expect(
      (
        await call(learner, 'POST /api/settings/password', '/api/settings/password', {
          current_password: 'wrong',
          new_password: 'x',
          confirm_new_password: 'x',
        })
      ).status,
    ).toBe(400);
    expect((await call(learner, 'GET /api/account/export', '/api/account/export')).status).toBe(200);
    expect((await call(learner, 'GET /api/certificate', '/api/certificate')).status).toBe(403);
    expect((await call(learner, 'POST /api/account/delete', '/api/account/delete', { password: 'wrong' })).status).toBe(400);
    expect((await call(learner, 'POST /api/account/delete', '/api/account/delete', { password: 'a-Long-enough-passw0rd' })).status).toBe(
      200,
    );
  });

  it('admin group', async () => {
    const admin = api.client();
    const adminUser = await createTestUser({ role: 'admin' });
    await signIn(admin, adminUser);
    const target = await createTestUser();
    const learner = api.client();
    await signIn(learner, target);
    await learner.post('/api/enroll');
    const id = target.id;
    expect((await call(learner, 'GET /api/admin/summary', '/api/admin/summary')).status).toBe(403);
    expect((await call(admin, 'GET /api/admin/summary', '/api/admin/summary')).status).toBe(200);
    expect((await call(admin, 'GET /api/admin/users', '/api/admin/users?page_size=25')).status).toBe(200);
    expect((await call(admin, 'GET /api/admin/users', '/api/admin/users?cursor=forged')).status).toBe(400);
    expect((await call(admin, 'GET /api/admin/users/{id}', `/api/admin/users/${id}`)).status).toBe(200);
    expect((await call(admin, 'GET /api/admin/users/{id}', '/api/admin/users/nope')).status).toBe(404);
    expect((await call(admin, 'PATCH /api/admin/users/{id}', `/api/admin/users/${id}`, { first_name: 'Grace' })).status).toBe(200);
    expect((await call(admin, 'POST /api/admin/users/{id}/lock', `/api/admin/users/${id}/lock`)).status).toBe(200);
    expect((await call(admin, 'POST /api/admin/users/{id}/lock', `/api/admin/users/${id}/lock`)).status).toBe(409);
    expect((await call(admin, 'POST /api/admin/users/{id}/unlock', `/api/admin/users/${id}/unlock`)).status).toBe(200);
    expect(
      (await call(admin, 'POST /api/admin/users/{id}/actions/invalidate-sessions', `/api/admin/users/${id}/actions/invalidate-sessions`))
        .status,
    ).toBe(200);
    expect((await call(admin, 'POST /api/admin/modules/force-complete', '/api/admin/modules/force-complete', { user_id: id })).status).toBe(
      400,
    );
    expect((await call(admin, 'GET /api/admin/users/{id}/hard-delete/preview', `/api/admin/users/${id}/hard-delete/preview`)).status).toBe(
      200,
    );
    expect((await call(admin, 'POST /api/admin/users/{id}/certificate/revoke', `/api/admin/users/${id}/certificate/revoke`)).status).toBe(
      404,
    );
    expect(
      (await call(admin, 'POST /api/admin/users/{id}/soft-delete', `/api/admin/users/${id}/soft-delete`, { reason: 'test' })).status,
    ).toBe(200);
    expect(
      (await call(admin, 'DELETE /api/admin/users/{id}', `/api/admin/users/${id}?confirm_email=${encodeURIComponent(target.email)}`))
        .status,
    ).toBe(409);
    expect((await call(admin, 'POST /api/admin/users/{id}/restore', `/api/admin/users/${id}/restore`)).status).toBe(200);
    expect((await call(admin, 'GET /api/admin/users/{id}/audit-logs', `/api/admin/users/${id}/audit-logs`)).status).toBe(200);
    expect((await call(admin, 'GET /api/admin/audit-logs', '/api/admin/audit-logs?page_size=50')).status).toBe(200);
    expect((await call(admin, 'GET /api/admin/audit-logs', '/api/admin/audit-logs?date_from=2024-13-01')).status).toBe(400);
  });
});
