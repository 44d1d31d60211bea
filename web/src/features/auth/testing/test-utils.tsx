/**
 * Test helpers for the accounts screens: a fake `fetch` answering by "METHOD /path", and a
 * render with a fresh QueryClient and an in-memory router. Test-only: never imported by the app.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { StrictMode, type ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { vi } from 'vitest';

export type Reply = { status?: number; body?: unknown; contentType?: string } | 'network';
export type Handler = Reply | ((request: { url: string; body: unknown }) => Reply | Promise<Reply>);

export interface FetchCall {
  method: string;
  path: string;
  url: string;
  body: unknown;
}

/**
 * Stubs global fetch. Unlisted calls answer 404 {error:'not_found'}, except `/__local/config`
 * which answers HTML as in the cloud (not local mode) unless listed.
 */
export function mockFetch(handlers: Record<string, Handler>) {
  const calls: FetchCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.split('?')[0];
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path, url, body });
    const key = `${method} ${path}`;
    let handler: Handler | undefined = handlers[key];
    if (handler === undefined && path === '/__local/config')
      handler = { status: 200, body: '<!doctype html><html></html>', contentType: 'text/html' };
    const reply = typeof handler === 'function' ? await handler({ url, body }) : (handler ?? { status: 404, body: { error: 'not_found' } });
    if (reply === 'network') throw new TypeError('Failed to fetch');
    const text = typeof reply.body === 'string' ? reply.body : reply.body === undefined ? '' : JSON.stringify(reply.body);
    return new Response(text, { status: reply.status ?? 200, headers: { 'Content-Type': reply.contentType ?? 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock, callsTo: (key: string) => calls.filter((c) => `${c.method} ${c.path}` === key) };
}

/** Shows the router's current path so tests can assert redirects. */
export function LocationProbe() {
  const location = useLocation();
  return (
    <div data-testid="location">
      {location.pathname}
      {location.search}
    </div>
  );
}

/** A page stub that names itself and the current path. */
export const stub = (name: string) => (
  <div>
    <p>{name} page</p>
    <LocationProbe />
  </div>
);

/** `strict` renders under React.StrictMode, which renders twice: a render with side effects shows. */
export function renderRoutes(routes: RouteObject[], initialPath: string, { strict = false } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const tree = (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
  const view = render(strict ? <StrictMode>{tree}</StrictMode> : tree);
  return { ...view, router, queryClient };
}

/** One screen at `path`, plus stub pages for every place it may send the user. */
export function renderScreen(element: ReactNode, path = '/', extra: RouteObject[] = []) {
  const pathname = path.split('?')[0];
  const stubs = ['/', '/login', '/register', '/forgot-password', '/dashboard', '/enroll', '/admin/dashboard']
    .filter((p) => p !== pathname)
    .map((p) => ({ path: p, element: stub(p) }));
  return renderRoutes([{ path: pathname, element }, ...extra, ...stubs], path);
}

export const me = (overrides: Record<string, unknown> = {}) => ({
  id: 'u1',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  name: 'Ada Lovelace',
  role: 'learner',
  verified: true,
  ...overrides,
});
