/**
 * Test-only helpers (the API is mocked with ./mock-api.ts): a render inside a fresh QueryClient
 * and an in-memory router that reports the current address.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';

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
