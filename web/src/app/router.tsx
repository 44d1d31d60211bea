import { lazy, Suspense, type ComponentType } from 'react';
import { BrowserRouter, matchRoutes, useRoutes, type RouteObject } from 'react-router';
import { paths, routePatterns } from '../config/paths';

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
const lazyRoute = (load: Load): Pick<RouteObject, 'element' | 'handle'> => {
  const Component = lazy(load);
  return { element: <Component />, handle: { load } };
};

export const routes: RouteObject[] = [
  {
    ...lazyRoute(() => import('./layouts/root-layout')),
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
      {
        ...lazyRoute(() => import('./guards/session-gate')),
        children: [
          { path: paths.dashboard, ...lazyRoute(() => import('./routes/dashboard')) },
          { path: paths.enroll, ...lazyRoute(() => import('./routes/enroll')) },
          { path: paths.settings, ...lazyRoute(() => import('./routes/settings')) },
          { path: routePatterns.module, ...lazyRoute(() => import('./routes/module')) },
          { path: paths.certificate, ...lazyRoute(() => import('./routes/certificate')) },
        ],
      },
      {
        ...lazyRoute(() => import('./guards/admin-gate')),
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
  for (const match of matchRoutes(routes, pathname) ?? []) void (match.route.handle as { load?: Load } | undefined)?.load?.();
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
