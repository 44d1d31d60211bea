/**
 * Test helpers for the accounts screens: a render with a fresh QueryClient and an in-memory
 * router (the API is mocked with web/src/testing/mock-api.ts). Test-only: never imported by the app.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { StrictMode, type ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';

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
