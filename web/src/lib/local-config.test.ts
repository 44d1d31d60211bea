import { afterEach, describe, expect, it, vi } from 'vitest';
import { getLocalConfig } from './local-config';

afterEach(() => vi.unstubAllGlobals());

const answer = (status: number, text: string) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(text, { status })),
  );

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
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    expect(await getLocalConfig()).toBeNull();
  });
});
