import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { proofOf, type Confirmation } from './confirm-identity';
import { sessionsQueryOptions } from './get-sessions';

/** "Sign out everywhere else" after "Confirm it's you"; the answer carries this session's fresh cookie. */
export const revokeOtherSessions = (confirmation: Confirmation) =>
  api.post<{ ok: boolean; ended: number }>('/api/auth/sessions/revoke-others', proofOf(confirmation));

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
  });
}
