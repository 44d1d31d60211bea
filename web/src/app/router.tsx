import type { ComponentType } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';

/** Route modules load on demand, so learner pages never download admin code (and vice versa). */
const lazyRoute = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });

export const routes = [
  {
    lazy: lazyRoute(() => import('./layouts/root-layout')),
    children: [
      { path: '/', lazy: lazyRoute(() => import('./routes/landing')) },
      { path: '/login', lazy: lazyRoute(() => import('./routes/login')) },
      { path: '/register', lazy: lazyRoute(() => import('./routes/register')) },
      { path: '/forgot-password', lazy: lazyRoute(() => import('./routes/forgot-password')) },
      { path: '/reset-password', lazy: lazyRoute(() => import('./routes/reset-password')) },
      { path: '/account-deleted', lazy: lazyRoute(() => import('./routes/account-deleted')) },
      { path: '/certificates/:code', lazy: lazyRoute(() => import('./routes/certificate-check')) },
      {
        lazy: lazyRoute(() => import('./guards/session-gate')),
        children: [
          { path: '/dashboard', lazy: lazyRoute(() => import('./routes/dashboard')) },
          { path: '/enroll', lazy: lazyRoute(() => import('./routes/enroll')) },
          { path: '/settings', lazy: lazyRoute(() => import('./routes/settings')) },
          { path: '/modules/:slug', lazy: lazyRoute(() => import('./routes/module')) },
          { path: '/certificate', lazy: lazyRoute(() => import('./routes/certificate')) },
        ],
      },
      {
        lazy: lazyRoute(() => import('./guards/admin-gate')),
        children: [
          { path: '/admin/dashboard', lazy: lazyRoute(() => import('./routes/admin/dashboard')) },
          { path: '/admin/users', lazy: lazyRoute(() => import('./routes/admin/users')) },
          { path: '/admin/audit', lazy: lazyRoute(() => import('./routes/admin/audit')) },
        ],
      },
      { path: '*', lazy: lazyRoute(() => import('./routes/not-found')) },
    ],
  },
];

const router = createBrowserRouter(routes);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
