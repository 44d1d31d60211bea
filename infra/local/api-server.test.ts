import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiServer } from './api-server';
import type { GroupHandler } from './group-handlers';

/** The local stand-in for API Gateway answers a client's malformed path itself, before any handler. */
describe('the local API server', () => {
  const handler = vi.fn<GroupHandler>(() => Promise.resolve({ statusCode: 200, body: '{}' }));
  const server = createApiServer({ handlers: { auth: handler, passkeys: handler, learner: handler, admin: handler } });
  let base = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    ['GET', '/api/modules/%'],
    ['GET', '/api/modules/%E0%A4%A'],
    ['POST', '/api/admin/users/%/unlock'],
    ['PUT', '/api/modules/intro/tasks/%zz'],
  ])('answers 400 invalid_path to %s %s without calling a handler', async (method, path) => {
    const response = await fetch(`${base}${path}`, { method });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_path' });
    expect(handler).not.toHaveBeenCalled();
  });

  it('still decodes a well-formed escape and dispatches the route', async () => {
    const response = await fetch(`${base}/api/modules/caf%C3%A9`);
    expect(response.status).toBe(200);
    expect(handler).toHaveBeenCalledTimes(1);
    const [event] = handler.mock.calls[0];
    expect(event.pathParameters).toEqual({ slug: 'café' });
  });
});
