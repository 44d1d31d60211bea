import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/routes';
import { useApi } from '../helpers/api';

const api = useApi();

describe('the API chain', () => {
  it('answers the health check once the database and mail endpoint answer', async () => {
    const response = await api.client().get('/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('strict-transport-security')).toMatch(/max-age=/);
  });

  it('answers unknown API paths with 404 not_found and wrong methods with 405', async () => {
    expect((await api.client().get('/api/nope')).body).toEqual({ error: 'not_found' });
    const wrongMethod = await api.client().request('DELETE', '/api/health');
    expect(wrongMethod.status).toBe(405);
  });

  it('refuses session routes without a session (401) and admin routes too', async () => {
    const guarded = ROUTES.filter((route) => route.access !== 'public');
    for (const route of guarded) {
      const path = route.path.replace(/\{[a-z_]+\}/g, 'x');
      const response = await api.client().request(route.method, path, route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
      expect(response.status, `${route.method} ${route.path}`).toBe(401);
      expect(response.body).toEqual({ error: 'unauthorized' });
    }
  });

  it('refuses a forged or garbage session cookie like no cookie', async () => {
    const client = api.client();
    client.setCookie('__Host-session', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.');
    expect((await client.get('/api/auth/me')).status).toBe(401);
  });

  it('accepts only JSON on state-changing calls (CSRF) and checks Origin', async () => {
    const client = api.client();
    const form = await client.request('POST', '/api/auth/login', 'email=a', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    expect(form.body).toEqual({ error: 'unsupported_media_type' });
    const foreign = await client.post('/api/auth/login', { email: 'a@b.co', password: 'x' }, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ error: 'bad_origin' });
  });

  it('answers malformed JSON with 400 invalid_json and bodies over 64 KB with 413', async () => {
    const client = api.client();
    const malformed = await client.request('POST', '/api/auth/login', '{"email":', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: 'invalid_json' });
    const huge = await client.post('/api/auth/login', { email: 'a@b.co', password: 'x'.repeat(70 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ error: 'payload_too_large' });
  });
});
