/**
 * The one route table. The CDK stack creates an API route for each entry, each Lambda group
 * dispatches with it, and the local server serves it. Nothing is listed twice.
 *
 * `access`:
 *  - `public`  — no session needed (the handler may still read one if present);
 *  - `session` — a valid session cookie is required (401 without one);
 *  - `admin`   — a valid session of an account with role admin (401 without session, 403 otherwise).
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type RouteGroup = 'auth' | 'passkeys' | 'learner' | 'admin';
export type RouteAccess = 'public' | 'session' | 'admin';

export interface RouteDef {
  method: HttpMethod;
  path: string;
  group: RouteGroup;
  access: RouteAccess;
}

const r = (method: HttpMethod, path: string, group: RouteGroup, access: RouteAccess): RouteDef => ({
  method,
  path,
  group,
  access,
});

export const ROUTES: readonly RouteDef[] = [
  r('GET', '/api/health', 'auth', 'public'),
  // The OpenAPI 3.1 reference of this table (docs/api.md#6-the-openapi-document)
  r('GET', '/api/openapi.json', 'auth', 'public'),

  // Session and authentication (docs/product.md#7-the-calls-it-makes)
  r('GET', '/api/auth/me', 'auth', 'session'),
  r('POST', '/api/auth/logout', 'auth', 'public'),
  r('POST', '/api/auth/login', 'auth', 'public'),
  r('POST', '/api/auth/verify-2fa', 'auth', 'public'),
  r('POST', '/api/auth/register', 'auth', 'public'),
  r('POST', '/api/auth/verify-email', 'auth', 'public'),
  // "Send a new code" for the verify step and the sign-in code step (docs/product.md#10-journeys)
  r('POST', '/api/auth/resend-verification', 'auth', 'public'),
  r('POST', '/api/auth/resend-2fa', 'auth', 'public'),
  // A learner's own deletion undone within the retention period (docs/product.md#account-data)
  r('POST', '/api/auth/restore', 'auth', 'public'),
  r('POST', '/api/auth/restore/verify', 'auth', 'public'),
  r('POST', '/api/auth/password-reset/request', 'auth', 'public'),
  r('GET', '/api/auth/password-reset/validate', 'auth', 'public'),
  r('POST', '/api/auth/password-reset/confirm', 'auth', 'public'),
  // Account security center (docs/security.md#account-security-center)
  r('GET', '/api/auth/sessions', 'auth', 'session'),
  // Ending sessions asks "Confirm it's you", which may be a passkey: served where the WebAuthn library is
  r('DELETE', '/api/auth/sessions/{id}', 'passkeys', 'session'),
  r('POST', '/api/auth/sessions/revoke-others', 'passkeys', 'session'),
  r('GET', '/api/auth/passkeys', 'passkeys', 'session'),
  r('POST', '/api/auth/passkeys/confirmation/options', 'passkeys', 'session'),
  r('POST', '/api/auth/passkeys/registration/options', 'passkeys', 'session'),
  r('POST', '/api/auth/passkeys/registration/verify', 'passkeys', 'session'),
  r('PATCH', '/api/auth/passkeys/{id}', 'passkeys', 'session'),
  r('DELETE', '/api/auth/passkeys/{id}', 'passkeys', 'session'),
  // The "this wasn't me" link of the passkey_added notice: no session, a signed token names the passkey
  r('POST', '/api/auth/passkeys/removal', 'passkeys', 'public'),
  r('POST', '/api/auth/passkeys/authentication/options', 'passkeys', 'public'),
  r('POST', '/api/auth/passkeys/authentication/verify', 'passkeys', 'public'),
  // Anyone can check a certificate by its code (docs/product.md#certificates)
  r('GET', '/api/certificates/{code}', 'auth', 'public'),

  // Learner (docs/product.md#7-the-calls-it-makes)
  r('GET', '/api/dashboard', 'learner', 'session'),
  r('GET', '/api/dashboard/state', 'learner', 'session'),
  r('POST', '/api/enroll', 'learner', 'session'),
  r('GET', '/api/settings/notifications', 'learner', 'session'),
  r('POST', '/api/settings/notifications', 'learner', 'session'),
  r('POST', '/api/settings/password', 'learner', 'session'),
  // Module page (docs/product.md#module-page)
  r('GET', '/api/modules/{slug}', 'learner', 'session'),
  r('PUT', '/api/modules/{slug}/tasks/{task_id}', 'learner', 'session'),
  // Account data and certificate (docs/product.md#account-data, #certificates)
  r('GET', '/api/account/export', 'learner', 'session'),
  r('POST', '/api/account/delete', 'learner', 'session'),
  r('GET', '/api/certificate', 'learner', 'session'),
  // One-click unsubscribe from reminders: no session, a signed token names the account (docs/product.md#unsubscribe)
  r('GET', '/api/notifications/unsubscribe', 'learner', 'public'),
  r('POST', '/api/notifications/unsubscribe', 'learner', 'public'),
  // The unsubscribe page: the address and frequency, "weekly instead" and back on, by the same token
  r('GET', '/api/notifications/subscription', 'learner', 'public'),
  r('POST', '/api/notifications/subscription', 'learner', 'public'),

  // Admin (docs/product.md#7-the-calls-it-makes)
  r('GET', '/api/admin/summary', 'admin', 'admin'),
  r('GET', '/api/admin/users', 'admin', 'admin'),
  // CSV exports (docs/product.md#csv-exports); a static path is matched before `{id}` (matchRoute)
  r('GET', '/api/admin/users/export.csv', 'admin', 'admin'),
  r('GET', '/api/admin/audit-logs/export.csv', 'admin', 'admin'),
  r('GET', '/api/admin/users/{id}', 'admin', 'admin'),
  r('PATCH', '/api/admin/users/{id}', 'admin', 'admin'),
  r('DELETE', '/api/admin/users/{id}', 'admin', 'admin'),
  r('POST', '/api/admin/users/{id}/lock', 'admin', 'admin'),
  r('POST', '/api/admin/users/{id}/unlock', 'admin', 'admin'),
  r('POST', '/api/admin/users/{id}/actions/invalidate-sessions', 'admin', 'admin'),
  r('POST', '/api/admin/users/{id}/soft-delete', 'admin', 'admin'),
  r('POST', '/api/admin/users/{id}/restore', 'admin', 'admin'),
  r('GET', '/api/admin/users/{id}/hard-delete/preview', 'admin', 'admin'),
  r('GET', '/api/admin/users/{id}/audit-logs', 'admin', 'admin'),
  r('POST', '/api/admin/users/{id}/reset-password', 'admin', 'admin'),
  r('POST', '/api/admin/users/{id}/certificate/revoke', 'admin', 'admin'),
  // A user's passkeys in the drawer (docs/security.md#account-security-center)
  r('GET', '/api/admin/users/{id}/passkeys', 'admin', 'admin'),
  r('DELETE', '/api/admin/users/{id}/passkeys/{passkey_id}', 'admin', 'admin'),
  r('GET', '/api/admin/audit-logs', 'admin', 'admin'),
  r('POST', '/api/admin/modules/unlock', 'admin', 'admin'),
  r('POST', '/api/admin/modules/force-complete', 'admin', 'admin'),
  r('POST', '/api/admin/modules/reopen', 'admin', 'admin'),
  r('POST', '/api/admin/modules/lock', 'admin', 'admin'),
  r('GET', '/api/admin/users/{id}/hard-delete/status', 'admin', 'admin'),
  // Program authoring (docs/product.md#program-authoring)
  r('GET', '/api/admin/program/draft', 'admin', 'admin'),
  r('PUT', '/api/admin/program/draft', 'admin', 'admin'),
  r('POST', '/api/admin/program/import', 'admin', 'admin'),
  r('POST', '/api/admin/program/publish', 'admin', 'admin'),
  r('GET', '/api/admin/program/versions', 'admin', 'admin'),
  r('GET', '/api/admin/program/versions/{version}', 'admin', 'admin'),
  r('GET', '/api/admin/program/versions/{version}/export', 'admin', 'admin'),
  r('POST', '/api/admin/program/versions/{version}/restore', 'admin', 'admin'),
];

/**
 * `passkeys` is its own Lambda: the WebAuthn library stays out of the `auth` bundle every login
 * loads (docs/lean-builds.md).
 */
export const ROUTE_GROUPS: readonly RouteGroup[] = ['auth', 'passkeys', 'learner', 'admin'];

/** API Gateway HTTP API route key, e.g. `GET /api/admin/users/{id}`. */
export const routeKey = (route: Pick<RouteDef, 'method' | 'path'>): string => `${route.method} ${route.path}`;

export const routesOfGroup = (group: RouteGroup): RouteDef[] => ROUTES.filter((route) => route.group === group);

// Paths without parameters first (a stable sort keeps the table's order otherwise): a static
// path such as /api/admin/users/export.csv wins over /api/admin/users/{id}, as in API Gateway.
const compiled = ROUTES.map((route) => ({
  route,
  pattern: new RegExp(`^${route.path.replace(/\{([a-z_]+)\}/g, '(?<$1>[^/]+)')}/?$`),
})).sort((a, b) => Number(a.route.path.includes('{')) - Number(b.route.path.includes('{')));

/** Finds the route for a concrete request path, with its path parameters (used by the local server). */
export function matchRoute(
  method: string,
  path: string,
): { route: RouteDef; params: Record<string, string> } | { route: undefined; methodNotAllowed: boolean; malformedPath?: true } {
  let pathMatched = false;
  for (const { route, pattern } of compiled) {
    const match = pattern.exec(path);
    if (!match) continue;
    pathMatched = true;
    if (route.method !== method) continue;
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(match.groups ?? {})) {
      try {
        params[name] = decodeURIComponent(value);
      } catch {
        // `%` without two hex digits: the client's mistake (400), answered before any access check.
        return { route: undefined, methodNotAllowed: false, malformedPath: true };
      }
    }
    return { route, params };
  }
  return { route: undefined, methodNotAllowed: pathMatched };
}
