import { lazy, Suspense, type ComponentType } from 'react';
import { BrowserRouter, matchRoutes, useRoutes, type RouteObject } from 'react-router';
import { RouteErrorBoundary } from '../components/ui/route-error-boundary';
import { paths, routePatterns } from '../config/paths';
import { reloadOnceOnFailure } from '../lib/chunk-reload';

/**
 * Route modules load on demand, so learner pages never download admin code (and vice versa),
 * and a feature's code (e.g. a password page's extras) rides with its route's chunk.
 *
 * Declarative routing (BrowserRouter + useRoutes), not the data router: createBrowserRouter
 * adds ~16 KB gzip to every first load and the app uses none of its loaders or actions
 * (docs/lean-builds.md). Navigations run in a transition, so the current page stays on screen
 * while the next route's chunk loads.
 */
type Load = () => Promise<{ default: ComponentType }>;

/**
 * A route whose code loads on demand, inside its own error boundary: a page that throws, or whose
 * code is gone after a deploy (one reload first, lib/chunk-reload.ts), shows a message under the
 * header instead of a blank page. `layout`: a route that wraps other routes.
 */
const lazyRoute = (load: Load, layout?: 'layout'): Pick<RouteObject, 'element' | 'handle'> => {
  const Component = lazy(reloadOnceOnFailure(load, !layout));
  return {
    element: (
      <RouteErrorBoundary>
        <Component />
      </RouteErrorBoundary>
    ),
    handle: { load },
  };
};

export const routes: RouteObject[] = [
  {
    ...lazyRoute(() => import('./layouts/root-layout'), 'layout'),
    children: [
      { path: paths.home, ...lazyRoute(() => import('./routes/landing')) },
      { path: paths.login, ...lazyRoute(() => import('./routes/login')) },
      { path: paths.register, ...lazyRoute(() => import('./routes/register')) },
      { path: paths.forgotPassword, ...lazyRoute(() => import('./routes/forgot-password')) },
      { path: paths.resetPassword, ...lazyRoute(() => import('./routes/reset-password')) },
      { path: routePatterns.accountDeleted, ...lazyRoute(() => import('./routes/account-deleted')) },
      { path: routePatterns.certificateCheck, ...lazyRoute(() => import('./routes/certificate-check')) },
      { path: paths.certificateLookup, ...lazyRoute(() => import('./routes/certificate-check')) },
      { path: paths.unsubscribe, ...lazyRoute(() => import('./routes/unsubscribe')) },
      { path: paths.passkeyRemoval, ...lazyRoute(() => import('./routes/passkey-removal')) },
      {
        ...lazyRoute(() => import('./guards/session-gate'), 'layout'),
        children: [
          { path: paths.dashboard, ...lazyRoute(() => import('./routes/dashboard')) },
          { path: paths.enroll, ...lazyRoute(() => import('./routes/enroll')) },
          { path: paths.settings, ...lazyRoute(() => import('./routes/settings')) },
          { path: routePatterns.module, ...lazyRoute(() => import('./routes/module')) },
          { path: paths.certificate, ...lazyRoute(() => import('./routes/certificate')) },
        ],
      },
      {
        ...lazyRoute(() => import('./guards/admin-gate'), 'layout'),
        children: [
          { path: paths.admin.dashboard, ...lazyRoute(() => import('./routes/admin/dashboard')) },
          { path: paths.admin.users, ...lazyRoute(() => import('./routes/admin/users')) },
          { path: paths.admin.audit, ...lazyRoute(() => import('./routes/admin/audit')) },
          { path: paths.admin.program, ...lazyRoute(() => import('./routes/admin/program')) },
        ],
      },
      { path: routePatterns.notFound, ...lazyRoute(() => import('./routes/not-found')) },
    ],
  },
];

/**
 * Starts loading every module of the matched route at once (layout, gate and page in parallel)
 * instead of one after another as each renders its child.
 */
export function preloadRoute(pathname: string): void {
  // A failure here is the route's own to report (its lazy component meets it too).
  for (const match of matchRoutes(routes, pathname) ?? [])
    void (match.route.handle as { load?: Load } | undefined)?.load?.().catch(() => undefined);
}

function AppRoutes() {
  return useRoutes(routes);
}

export function AppRouter() {
  return (
    <BrowserRouter>
      {/* First load only: the page appears whole once its chunks are in (as the data router did). */}
      <Suspense fallback={null}>
        <AppRoutes />
      </Suspense>
    </BrowserRouter>
  );
}

if (typeof window !== 'undefined') preloadRoute(window.location.pathname);
