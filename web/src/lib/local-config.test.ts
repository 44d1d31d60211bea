import { describe, expect, it } from 'vitest';
import { mockFetch } from '../testing/mock-api';
import { getLocalConfig } from './local-config';

const answer = (status: number, text: string) =>
  mockFetch({ 'GET /__local/config': { status, body: text, contentType: 'text/plain' } }, { unlisted: 'error' });

describe('getLocalConfig', () => {
  it('reads the mail viewer address in local mode', async () => {
    answer(200, JSON.stringify({ mail_viewer_url: 'http://localhost:8005' }));
    expect(await getLocalConfig()).toEqual({ mail_viewer_url: 'http://localhost:8005' });
  });

  it.each([
    ['the SPA fallback HTML', 200, '<!doctype html><html></html>'],
    ['a 404', 404, '{"error":"not_found"}'],
    ['JSON without the address', 200, '{"other":true}'],
  ])('is null for %s', async (_name, status, text) => {
    answer(status, text);
    expect(await getLocalConfig()).toBeNull();
  });

  it('is null when the request fails', async () => {
    mockFetch({ 'GET /__local/config': 'network' }, { unlisted: 'error' });
    expect(await getLocalConfig()).toBeNull();
  });
});
