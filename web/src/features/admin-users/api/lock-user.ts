import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userPath } from './get-user';
import { invalidateUser } from './user-cache';

export const lockUser = (id: string) => api.post<unknown>(`${userPath(id)}/lock`);

export function useLockUser(id: string) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: () => lockUser(id), onSettled: () => invalidateUser(queryClient, id) });
}
