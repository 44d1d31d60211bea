import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { proofOf, type Confirmation } from './confirm-identity';
import { sessionsQueryOptions } from './get-sessions';

export const revokeSession = ({ id, confirmation }: { id: string; confirmation: Confirmation }) =>
  api.delete<{ ok: boolean }>(`/api/auth/sessions/${encodeURIComponent(id)}`, proofOf(confirmation));

/** Ends one of the caller's other sessions after "Confirm it's you"; the list is read again either way. */
export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
  });
}
