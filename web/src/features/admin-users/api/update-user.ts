import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userPath } from './get-user';
import { invalidateUser } from './user-cache';

export interface UserProfileChange {
  first_name: string;
  last_name: string;
  email: string;
}

export const updateUser = (id: string, change: UserProfileChange) => api.patch<unknown>(userPath(id), change);

export function useUpdateUser(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: UserProfileChange) => updateUser(id, change),
    onSettled: () => invalidateUser(queryClient, id),
  });
}
