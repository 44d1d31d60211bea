import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { AdminUserDetail } from '@shared/admin-types';

export const userPath = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`;

export const getUser = (id: string) => api.get<AdminUserDetail>(userPath(id));

/** The user's audit and hard-delete preview keys extend this one: invalidating it refreshes them too. */
export const userQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'users', 'detail', id],
    queryFn: () => getUser(id),
  });

export const useAdminUser = (id: string) => useQuery(userQueryOptions(id));
