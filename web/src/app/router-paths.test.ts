import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { matchRoutes, type RouteObject } from 'react-router';
import { afterAll, describe, expect, it } from 'vitest';
import { paths, routePatterns } from '../config/paths';
import { routes } from './router';

/** The router's addresses all come from web/src/config/paths.ts, and every address there is routed. */
const routePaths = (list: RouteObject[]): string[] =>
  list.flatMap((route) => [...(route.path ? [route.path] : []), ...routePaths(route.children ?? [])]);

const staticPaths = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(staticPaths) : [];

describe('the router and config/paths', () => {
  // router.tsx preloads the current page's modules on import: let them finish before teardown
  afterAll(async () => {
    await Promise.all(
      (matchRoutes(routes, window.location.pathname) ?? []).map((match) => (match.route.handle as { load: () => Promise<unknown> }).load()),
    );
  });

  it('routes only addresses defined in config/paths.ts', () => {
    const known = new Set([...staticPaths(paths), ...Object.values(routePatterns)]);
    expect(routePaths(routes).filter((path) => !known.has(path))).toEqual([]);
  });

  it('routes every address defined in config/paths.ts', () => {
    const routed = new Set(routePaths(routes));
    expect([...staticPaths(paths), ...Object.values(routePatterns)].filter((path) => !routed.has(path))).toEqual([]);
  });

  it('matches what the path builders produce to the route of their pattern', () => {
    const leaf = (pathname: string) => matchRoutes(routes, pathname)?.at(-1)?.route.path;
    expect(leaf(paths.module('week-1/intro'))).toBe(routePatterns.module);
    expect(leaf(paths.certificateCheck('ABC-123'))).toBe(routePatterns.certificateCheck);
    expect(leaf(paths.accountDeleted('2030-01-01').split('?')[0])).toBe(routePatterns.accountDeleted);
    expect(leaf('/no-such-page')).toBe(routePatterns.notFound);
  });

  it('spells no path in the router itself', () => {
    const source = readFileSync(join(import.meta.dirname, 'router.tsx'), 'utf8');
    expect(source).not.toMatch(/path:\s*['"`]/);
  });
});
