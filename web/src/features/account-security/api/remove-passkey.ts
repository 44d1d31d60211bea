import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { passkeysQueryOptions } from './get-passkeys';

export const removePasskey = (id: string) => api.delete<{ ok: boolean }>(`/api/auth/passkeys/${encodeURIComponent(id)}`);

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePasskey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysQueryOptions().queryKey }),
  });
}
