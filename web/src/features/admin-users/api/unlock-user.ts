import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userPath } from './get-user';
import { invalidateUser } from './user-cache';

export const unlockUser = (id: string) => api.post<unknown>(`${userPath(id)}/unlock`);

export function useUnlockUser(id: string) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: () => unlockUser(id), onSettled: () => invalidateUser(queryClient, id) });
}
