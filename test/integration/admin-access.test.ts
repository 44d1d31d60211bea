import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/routes';
import { useApi } from '../helpers/api';
import { createTestUser, signIn } from '../helpers/users';

const api = useApi();
const adminRoutes = ROUTES.filter((route) => route.group === 'admin');
const concrete = (path: string) => path.replace('{id}', '00000000-0000-0000-0000-000000000000');
const call = (client: ReturnType<typeof api.client>, method: string, path: string) =>
  method === 'GET' || method === 'DELETE' ? client.request(method, concrete(path)) : client.request(method, concrete(path), {});

describe('admin routes: access', () => {
  it('covers every admin route of the table', () => {
    expect(adminRoutes.length).toBe(30); // with the two CSV exports and program authoring
    expect(adminRoutes.every((route) => route.access === 'admin')).toBe(true);
  });

  it.each(adminRoutes.map((route) => [route.method, route.path]))('%s %s: 401 without a session', async (method, path) => {
    const response = await call(api.client(), method, path);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'unauthorized' });
  });

  it.each(adminRoutes.map((route) => [route.method, route.path]))('%s %s: 403 admin_required for a learner', async (method, path) => {
    const learner = await createTestUser();
    const client = api.client();
    await signIn(client, learner);
    const response = await call(client, method, path);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'admin_required' });
  });

  it.each(adminRoutes.map((route) => [route.method, route.path]))(
    '%s %s: implemented for an admin (never 501/500)',
    async (method, path) => {
      const admin = await createTestUser({ role: 'admin' });
      const client = api.client();
      await signIn(client, admin);
      const response = await call(client, method, path);
      expect(response.status).not.toBe(501);
      expect(response.status).toBeLessThan(500);
    },
  );
});
