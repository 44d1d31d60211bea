import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userPath, userQueryOptions } from './get-user';

// `string & {}`: any other value the server may add, while the known ones stay suggested.
export type ResetDelivery = 'sent' | 'sandbox' | 'allowlist_block' | (string & {});

export const sendPasswordReset = (id: string) => api.post<{ delivery?: ResetDelivery }>(`${userPath(id)}/reset-password`);

export function useSendPasswordReset(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => sendPasswordReset(id),
    // Sending writes an audit entry; the detail prefix covers the user's audit tab.
    onSettled: () => queryClient.invalidateQueries({ queryKey: userQueryOptions(id).queryKey }),
  });
}
