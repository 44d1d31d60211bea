import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { PasskeyItem } from '../types';
import { passkeysQueryOptions } from './get-passkeys';

export const renamePasskey = ({ id, name }: { id: string; name: string }) =>
  api.patch<PasskeyItem>(`/api/auth/passkeys/${encodeURIComponent(id)}`, { name });

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renamePasskey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysQueryOptions().queryKey }),
  });
}
