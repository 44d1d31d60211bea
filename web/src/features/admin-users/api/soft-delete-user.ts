import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { AdminSoftDeleteResult, AdminUserDetail } from '@shared/admin-types';
import { userPath, userQueryOptions } from './get-user';
import { invalidateUser } from './user-cache';

export type SoftDeleteResult = AdminSoftDeleteResult;

/** The reason is optional and sent only when non-empty (docs/product.md#5-validation-rules). */
export const softDeleteUser = (id: string, reason: string) =>
  api.post<SoftDeleteResult>(`${userPath(id)}/soft-delete`, reason.trim() ? { reason: reason.trim() } : {});

export function useSoftDeleteUser(id: string) {
  const queryClient = useQueryClient();
  const key = userQueryOptions(id).queryKey;
  return useMutation({
    mutationFn: (reason: string) => softDeleteUser(id, reason),
    onSuccess: (result) =>
      // The answer is authoritative at once; a new retention window starts, so readiness resets.
      queryClient.setQueryData(key, (user: AdminUserDetail | undefined) =>
        user ? { ...user, ...result, hard_delete_ready: false } : user,
      ),
    onSettled: () => invalidateUser(queryClient, id),
  });
}
