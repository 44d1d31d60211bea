import { paths } from '@/config/paths';
import { api, ApiError } from '@/lib/api-client';
import { isAdmin, type SessionUser } from '@/lib/auth';

/**
 * Where a fresh sign-in lands (docs/product.md#4-states-and-transitions): admins on the admin dashboard; learners are probed with
 * `GET /api/dashboard`: 404 (not enrolled yet) → /enroll, anything else (even a failure, which the
 * dashboard then reports itself) → /dashboard.
 */
export async function postLoginDestination(user: SessionUser | null | undefined): Promise<string> {
  if (isAdmin(user)) return paths.admin.dashboard;
  try {
    await api.get('/api/dashboard');
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return paths.enroll;
  }
  return paths.dashboard;
}
