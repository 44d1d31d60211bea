import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/routes';
import { type ApiClient, useApi } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';

/**
 * Regressions for the 5xx answers the OpenAPI-driven fuzz test found (docs/api.md#7-fuzzing),
 * each reduced to the request that produced it.
 */
const api = useApi();
let admin: ApiClient;
let learner: ApiClient;
beforeAll(async () => {
  admin = api.client();
  await signIn(admin, await createTestUser({ role: 'admin' }));
  learner = api.client();
  await signIn(learner, await createTestUser());
});

/** Longer than any id, slug or code, and than DynamoDB's 2,048-byte partition key once prefixed. */
const LONG = 'b'.repeat(3_000);

describe('a path parameter longer than any id (fuzz: 500 from DynamoDB key size)', () => {
  it('answers 404 not_found on every route with a path parameter, for the role that may call it', async () => {
    for (const route of ROUTES.filter((r) => r.path.includes('{'))) {
      const client = route.access === 'admin' ? admin : route.access === 'session' ? learner : api.client();
      const path = route.path.replace(/\{[a-z_]+\}/g, LONG);
      const response = await client.request(route.method, path, route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
      expect([response.status, response.body?.error], `${route.method} ${route.path}`).toEqual([404, expect.stringMatching(/not_found$/)]);
    }
  });
});

describe('a path parameter with a control character or line break (fuzz: 500 from an IAM-refused key)', () => {
  it('answers 404 not_found on every route with a path parameter, for the role that may call it', async () => {
    for (const value of ['%0A', 'abc%0D%0Adef', '%7F', '%E2%80%A8']) {
      for (const route of ROUTES.filter((r) => r.path.includes('{'))) {
        const client = route.access === 'admin' ? admin : route.access === 'session' ? learner : api.client();
        const path = route.path.replace(/\{[a-z_]+\}/g, value);
        const response = await client.request(route.method, path, route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
        expect([response.status, response.body?.error], `${route.method} ${path}`).toEqual([404, expect.stringMatching(/not_found$/)]);
      }
    }
  });
});

describe('long audit-log filters (fuzz: 500 from DynamoDB key size) and user-list parameters', () => {
  it('are refused or answered, never a 500', async () => {
    for (const query of ['actor', 'entity_id', 'entity_type', 'action']) {
      const response = await admin.get(`/api/admin/audit-logs?${query}=${LONG}`);
      expect([response.status, response.body.error, response.body.fields], query).toEqual([400, 'invalid_request', [query]]);
    }
    for (const query of ['query', 'filter', 'status', 'cursor']) {
      const response = await admin.get(`/api/admin/users?${query}=${LONG}`);
      expect(response.status, query).toBeLessThan(500);
    }
  });
});
