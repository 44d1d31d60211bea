import { describe, expect, it } from 'vitest';
import { mockFetch } from '../testing/mock-api';
import { api } from './api-client';

describe('api', () => {
  it('sends no body to an operation called without one (the OpenAPI document gives those none)', async () => {
    const calls = mockFetch({ 'POST /api/auth/logout': { body: { ok: true } }, 'POST /api/auth/login': { body: { ok: true } } });
    await api.post('/api/auth/logout');
    await api.post('/api/auth/login', { email: 'ada@example.com' });
    expect(calls.callsTo('POST /api/auth/logout')[0]).toMatchObject({ body: undefined, contentType: 'application/json' });
    expect(calls.callsTo('POST /api/auth/login')[0].body).toEqual({ email: 'ada@example.com' });
  });
});
