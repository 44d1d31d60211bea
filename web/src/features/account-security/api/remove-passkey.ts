import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { proofOf, type Confirmation } from './confirm-identity';
import { passkeysQueryOptions } from './get-passkeys';

/** Removes a passkey after "Confirm it's you". */
export const removePasskey = ({ id, confirmation }: { id: string; confirmation: Confirmation }) =>
  api.delete<{ ok: boolean }>(`/api/auth/passkeys/${encodeURIComponent(id)}`, proofOf(confirmation));

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePasskey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysQueryOptions().queryKey }),
  });
}
