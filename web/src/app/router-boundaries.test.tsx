import { isValidElement } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import { afterAll, describe, expect, it } from 'vitest';
import { RouteErrorBoundary } from '../components/ui/route-error-boundary';
import { routes } from './router';

const everyRoute = (list: RouteObject[]): RouteObject[] => list.flatMap((route) => [route, ...everyRoute(route.children ?? [])]);

describe('the router', () => {
  // router.tsx preloads the current page's modules on import: let them finish before teardown
  afterAll(async () => {
    await Promise.all(
      (matchRoutes(routes, window.location.pathname) ?? []).map((match) => (match.route.handle as { load: () => Promise<unknown> }).load()),
    );
  });

  it('puts every route, layouts and pages, inside its own error boundary (never a blank page)', () => {
    const unguarded = everyRoute(routes).filter((route) => !(isValidElement(route.element) && route.element.type === RouteErrorBoundary));
    expect(unguarded.map((route) => route.path ?? '(layout)')).toEqual([]);
  });
});
