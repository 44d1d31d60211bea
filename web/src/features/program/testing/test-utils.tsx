import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { StrictMode, type ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { meQueryOptions, type SessionUser } from '@/lib/auth';
import { mockFetch, type FetchCall } from '@/testing/mock-api';

/** A JSON answer. */
export interface MockAnswer {
  status?: number;
  body?: unknown;
}

type Handler = (body: unknown, url: string) => MockAnswer | Promise<MockAnswer>;

/**
 * Answers the API calls listed by "METHOD /path" (the shared MSW mock, web/src/testing/mock-api.ts);
 * an unexpected call fails the test loudly instead of hanging. Returns the mock so tests can
 * inspect calls.
 */
export function mockApi(handlers: Record<string, Handler>) {
  return mockFetch(
    Object.fromEntries(Object.entries(handlers).map(([key, handler]) => [key, (call: FetchCall) => handler(call.body, call.url)])),
    { unlisted: 'error' },
  );
}

/** The parsed bodies of the calls the mock received for one "METHOD /path". */
export function callsTo(api: ReturnType<typeof mockApi>, key: string): unknown[] {
  return api.callsTo(key).map((call) => call.body);
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
