import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { sessionsQueryOptions } from './get-sessions';

export const revokeSession = (id: string) => api.delete<{ ok: boolean }>(`/api/auth/sessions/${encodeURIComponent(id)}`);

/** Ends one of the caller's other sessions; the list is read again either way. */
export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
  });
}
