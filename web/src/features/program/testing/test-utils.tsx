import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { StrictMode, type ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { meQueryOptions, type SessionUser } from '../../../lib/auth';

/** A JSON answer for the fetch mock. */
export interface MockAnswer {
  status?: number;
  body?: unknown;
}

type Handler = (body: unknown, url: string) => MockAnswer | Promise<MockAnswer>;

/**
 * Stubs `fetch` with handlers keyed "METHOD /path". An unexpected call fails the test loudly
 * instead of hanging. Returns the mock so tests can inspect calls.
 */
export function mockApi(handlers: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : input.toString();
    const method = (init?.method ?? 'GET').toUpperCase();
    const handler = handlers[`${method} ${url}`];
    if (!handler) throw new Error(`Unexpected call ${method} ${url}`);
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const answer = await handler(body, url);
    return new Response(answer.body === undefined ? '' : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** Calls the fetch mock received for one "METHOD /path", with their parsed bodies. */
export function callsTo(fetchMock: ReturnType<typeof mockApi>, key: string): unknown[] {
  return fetchMock.mock.calls
    .filter(
      ([input, init]) => `${(init?.method ?? 'GET').toUpperCase()} ${input instanceof Request ? input.url : input.toString()}` === key,
    )
    .map(([, init]) => (typeof init?.body === 'string' ? JSON.parse(init.body) : undefined));
}

export const learner: SessionUser = {
  id: 'u1',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  name: 'Ada Lovelace',
  role: 'learner',
  verified: true,
};

/**
 * Renders `element` at `path` (route pattern `pattern`) inside a memory router whose other
 * learner destinations are stubs that name themselves, so redirects can be asserted.
 */
export function renderRoute(
  element: ReactElement,
  { path, pattern = path, user = learner, strict = false }: { path: string; pattern?: string; user?: SessionUser | null; strict?: boolean },
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  queryClient.setQueryData(meQueryOptions().queryKey, user);
  const stubs = [
    { path: '/login', element: <h1>Login page</h1> },
    { path: '/enroll', element: <h1>Enroll page</h1> },
    { path: '/dashboard', element: <h1>Dashboard page</h1> },
    { path: '/settings', element: <h1>Settings page</h1> },
    { path: '/modules/:slug', element: <h1>Module page</h1> },
  ].filter((stub) => stub.path !== pattern);
  const router = createMemoryRouter([{ path: pattern, element }, ...stubs], { initialEntries: [path] });
  const tree = (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
  const view = render(strict ? <StrictMode>{tree}</StrictMode> : tree);
  return { ...view, router, queryClient };
}
