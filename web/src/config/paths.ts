/**
 * The router's patterns of the addresses that take a parameter (web/src/app/router.tsx); the
 * builders in `paths` fill them in.
 */
export const routePatterns = {
  module: '/modules/:slug',
  certificateCheck: '/certificates/:code',
  accountDeleted: '/account-deleted',
  notFound: '*',
} as const;

/** Every address of the SPA in one place: the router builds its routes from these. */
export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  dashboard: '/dashboard',
  enroll: '/enroll',
  settings: '/settings',
  module: (slug: string) => routePatterns.module.replace(':slug', encodeURIComponent(slug)),
  certificate: '/certificate',
  certificateLookup: '/certificates',
  unsubscribe: '/unsubscribe',
  certificateCheck: (code: string) => routePatterns.certificateCheck.replace(':code', encodeURIComponent(code)),
  accountDeleted: (eraseOn: string) => `${routePatterns.accountDeleted}?erase_on=${encodeURIComponent(eraseOn)}`,
  admin: {
    dashboard: '/admin/dashboard',
    users: '/admin/users',
    audit: '/admin/audit',
    program: '/admin/program',
  },
} as const;
