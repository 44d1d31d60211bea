/** Every address of the SPA in one place. */
export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  dashboard: '/dashboard',
  enroll: '/enroll',
  settings: '/settings',
  module: (slug: string) => `/modules/${encodeURIComponent(slug)}`,
  certificate: '/certificate',
  certificateCheck: (code: string) => `/certificates/${encodeURIComponent(code)}`,
  accountDeleted: (eraseOn: string) => `/account-deleted?erase_on=${encodeURIComponent(eraseOn)}`,
  admin: {
    dashboard: '/admin/dashboard',
    users: '/admin/users',
    audit: '/admin/audit',
  },
} as const;
