/**
 * Test-only helpers: a fake fetch answering by "METHOD /path" (recording every call), and a
 * render inside a fresh QueryClient and an in-memory router that reports the current address.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { vi } from 'vitest';

export type Reply = { status?: number; body?: unknown };
export type Handler = Reply | ((call: FetchCall) => Reply);
export interface FetchCall {
  method: string;
  path: string;
  url: string;
  body: unknown;
}

export function mockFetch(handlers: Record<string, Handler>) {
  const calls: FetchCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : input.toString();
      const method = (init?.method ?? 'GET').toUpperCase();
      const call = { method, path: url.split('?')[0], url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined };
      calls.push(call);
      const handler = handlers[`${method} ${call.path}`];
      const reply = typeof handler === 'function' ? handler(call) : (handler ?? { status: 404, body: { error: 'not_found' } });
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
        status: reply.status ?? 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return { calls, callsTo: (key: string) => calls.filter((c) => `${c.method} ${c.path}` === key) };
}

function Location() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

export function renderAt(path: string, element: ReactNode, extra: { path: string; element: ReactNode }[] = []) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const pathname = path.split('?')[0];
  const router = createMemoryRouter(
    [
      {
        path: pathname,
        element: (
          <>
            {element}
            <Location />
          </>
        ),
      },
      ...extra.map((route) => ({
        path: route.path,
        element: (
          <>
            {route.element}
            <Location />
          </>
        ),
      })),
    ],
    { initialEntries: [path] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient };
}
