/**
 * Test-only: answers the app's API calls by "METHOD /path" through MSW handlers and records every
 * call (method, path, URL as the app wrote it, parsed JSON body) so tests can assert on them.
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import { SIGNED_IN_HINT_COOKIE } from '@shared/constants';
import { server } from './msw-server';

/** An answer: JSON by default; `'network'` fails the request as a dropped connection does. */
export type Reply = { status?: number; body?: unknown; contentType?: string; headers?: Record<string, string> } | 'network';

export interface FetchCall {
  method: string;
  /** Path without the query string, as in the handler keys. */
  path: string;
  /** Path and query string, origin left out (the app calls relative URLs). */
  url: string;
  body: unknown;
  /** The Content-Type header sent, or null. */
  contentType: string | null;
}

/** A fixed answer, or a function of the call (which may return a promise the test settles later). */
export type Handler = Reply | ((call: FetchCall) => Reply | Promise<Reply>);

export interface MockFetchOptions {
  /**
   * What a call no key lists gets: `'not_found'` answers 404 {error:'not_found'} (and
   * `/__local/config` the HTML page the cloud serves there, i.e. not local mode); `'error'`
   * leaves it unhandled, so MSW fails the request and the test.
   */
  unlisted?: 'not_found' | 'error';
}

function toResponse(reply: Reply): Response {
  if (reply === 'network') return HttpResponse.error();
  const text = typeof reply.body === 'string' ? reply.body : reply.body === undefined ? null : JSON.stringify(reply.body);
  return new HttpResponse(text, {
    status: reply.status ?? 200,
    headers: { 'Content-Type': reply.contentType ?? 'application/json', ...reply.headers },
  });
}

async function readBody(request: Request): Promise<unknown> {
  const text = await request.clone().text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function callOf(request: Request): Promise<FetchCall> {
  const { pathname, search } = new URL(request.url);
  return {
    method: request.method,
    path: pathname,
    url: pathname + search,
    body: await readBody(request),
    contentType: request.headers.get('content-type'),
  };
}

/**
 * Installs the handlers for the current test (MSW drops them after it). Keys are "METHOD /path"
 * with the path matched exactly, query string aside.
 */
export function mockFetch(handlers: Record<string, Handler>, { unlisted = 'not_found' }: MockFetchOptions = {}) {
  const calls: FetchCall[] = [];
  // A test that answers `GET /api/auth/me` plays a browser that may hold a session: it holds the
  // signed-in hint the API sets with the session cookie (web/src/lib/signed-in-hint.ts).
  if ('GET /api/auth/me' in handlers) document.cookie = `${SIGNED_IN_HINT_COOKIE}=1; Path=/`;

  // First in line: records the call, then falls through (no return) to the handler that answers.
  const recorder = http.all('*', async ({ request }) => {
    calls.push(await callOf(request));
  });

  const answers: HttpHandler[] = Object.entries(handlers).map(([key, handler]) => {
    const [method, path] = key.split(' ');
    return http.all(path, async ({ request }) => {
      if (request.method !== method.toUpperCase()) return undefined;
      return toResponse(typeof handler === 'function' ? await handler(await callOf(request)) : handler);
    });
  });

  const fallback =
    unlisted === 'not_found'
      ? [
          http.get('/__local/config', () => toResponse({ body: '<!doctype html><html></html>', contentType: 'text/html' })),
          http.all('*', () => toResponse({ status: 404, body: { error: 'not_found' } })),
        ]
      : [];

  server.use(recorder, ...answers, ...fallback);
  return { calls, callsTo: (key: string) => calls.filter((c) => `${c.method} ${c.path}` === key) };
}
