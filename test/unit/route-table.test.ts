import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchRoute, ROUTES, routeKey, type RouteGroup } from '../../shared/routes';

/** Every call of docs/product.md §7 (the product's own reference), read from it so none is forgotten. */
function specCalls(): Array<{ key: string; group: RouteGroup }> {
  const spec = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'product.md'), 'utf8');
  const section = spec.slice(spec.indexOf('## 7.'), spec.indexOf('## 8.'));
  const groups: Record<string, RouteGroup> = { 'Session and authentication': 'auth', Learner: 'learner', Admin: 'admin' };
  const calls: Array<{ key: string; group: RouteGroup }> = [];
  let group: RouteGroup | undefined;
  for (const line of section.split('\n')) {
    const heading = /^### (.+)$/.exec(line);
    if (heading) group = groups[heading[1].trim()];
    const row = /^\| (GET|POST|PUT|PATCH|DELETE) (\/api\/[^|]+?) \|/.exec(line);
    if (!row || !group) continue;
    const [, method, rest] = row;
    // "/api/admin/users/{id}/lock and /unlock", "/api/admin/modules/unlock, /force-complete, …"
    const [first, ...siblings] = rest.split(/,\s*|\s+and\s+/).map((p) => p.trim().split('?')[0]);
    const base = first.slice(0, first.lastIndexOf('/'));
    calls.push({ key: `${method} ${first}`, group });
    for (const sibling of siblings) calls.push({ key: `${method} ${base}${sibling}`, group });
  }
  return calls;
}

describe('the route table', () => {
  const calls = specCalls();

  it('reads every call of docs/product.md §7', () => {
    expect(calls.length).toBe(45); // 11 auth + 6 learner + 28 admin (8 of them program authoring)
  });

  it('has every docs/product.md §7 call, in its group', () => {
    const table = new Map(ROUTES.map((route) => [routeKey(route), route]));
    for (const call of calls) {
      expect(table.has(call.key), call.key).toBe(true);
      expect(table.get(call.key)!.group, call.key).toBe(call.group);
    }
  });

  it('has the health check and no duplicate route', () => {
    expect(ROUTES.some((route) => routeKey(route) === 'GET /api/health' && route.access === 'public')).toBe(true);
    const keys = ROUTES.map(routeKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('requires the admin role on every admin route and a session on every learner route but the unsubscribe link and page', () => {
    // The reminder's unsubscribe link and its page are authorised by the signed token, never a session (docs/product.md#unsubscribe).
    const tokenRoutes = new Set([
      'GET /api/notifications/unsubscribe',
      'POST /api/notifications/unsubscribe',
      'GET /api/notifications/subscription',
      'POST /api/notifications/subscription',
    ]);
    for (const route of ROUTES) {
      if (route.group === 'admin') expect(route.access, routeKey(route)).toBe('admin');
      if (route.group === 'learner') expect(route.access, routeKey(route)).toBe(tokenRoutes.has(routeKey(route)) ? 'public' : 'session');
    }
    expect(ROUTES.find((route) => routeKey(route) === 'GET /api/auth/me')?.access).toBe('session');
  });

  it('matches concrete paths to routes with their parameters', () => {
    const match = matchRoute('GET', '/api/admin/users/abc-123/audit-logs');
    expect(match.route && routeKey(match.route)).toBe('GET /api/admin/users/{id}/audit-logs');
    expect(match.route && 'params' in match ? match.params : {}).toEqual({ id: 'abc-123' });
    expect(matchRoute('DELETE', '/api/health')).toEqual({ route: undefined, methodNotAllowed: true });
    expect(matchRoute('GET', '/api/nope')).toEqual({ route: undefined, methodNotAllowed: false });
  });

  it('matches a static path before a parameter at the same place (the CSV exports, not a user id)', () => {
    const users = matchRoute('GET', '/api/admin/users/export.csv');
    expect(users.route && routeKey(users.route)).toBe('GET /api/admin/users/export.csv');
    const audit = matchRoute('GET', '/api/admin/audit-logs/export.csv');
    expect(audit.route && routeKey(audit.route)).toBe('GET /api/admin/audit-logs/export.csv');
    const other = matchRoute('GET', '/api/admin/users/export');
    expect(other.route && routeKey(other.route)).toBe('GET /api/admin/users/{id}');
  });
});

describe('a malformed percent escape in a path', () => {
  it('is reported as malformed (the server answers 400), not thrown', () => {
    expect(matchRoute('GET', '/api/modules/%')).toEqual({ route: undefined, methodNotAllowed: false, malformedPath: true });
    expect(matchRoute('POST', '/api/admin/users/%/unlock')).toEqual({ route: undefined, methodNotAllowed: false, malformedPath: true });
  });
});
