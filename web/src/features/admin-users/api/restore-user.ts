import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { AdminRestoreResult, AdminUserDetail } from '@shared/admin-types';
import { userPath, userQueryOptions } from './get-user';
import { invalidateUser } from './user-cache';

export const restoreUser = (id: string) => api.post<AdminRestoreResult>(`${userPath(id)}/restore`);

export function useRestoreUser(id: string) {
  const queryClient = useQueryClient();
  const key = userQueryOptions(id).queryKey;
  return useMutation({
    mutationFn: () => restoreUser(id),
    onSuccess: (result) =>
      // Deleted → active, or whatever status the server reports (docs/product.md#4-states-and-transitions).
      queryClient.setQueryData(key, (user: AdminUserDetail | undefined) =>
        user ? { ...user, status: result?.status ?? 'active', deleted_at: null, deleted_reason: null } : user,
      ),
    onSettled: () => invalidateUser(queryClient, id),
  });
}
