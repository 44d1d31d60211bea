import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userPath } from './get-user';
import { invalidateUser } from './user-cache';

export const invalidateSessions = (id: string) => api.post<unknown>(`${userPath(id)}/actions/invalidate-sessions`);

export function useInvalidateSessions(id: string) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: () => invalidateSessions(id), onSettled: () => invalidateUser(queryClient, id) });
}
