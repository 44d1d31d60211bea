import { useCallback } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { meQueryOptions } from '@/lib/auth';

export interface DeleteAccountResult {
  ok: true;
  status: 'deleted';
  deleted_at: string;
  erase_after: string;
}

/** `POST /api/account/delete` {password}: soft-deletes the account and ends every session. */
export const deleteAccount = (password: string) => api.post<DeleteAccountResult>('/api/account/delete', { password });

export const useDeleteAccount = () => useMutation({ mutationFn: deleteAccount });

/**
 * After the deletion the session has ended: nothing cached about the account may stay in memory,
 * and the app must know it is signed out. Called once the page has left the signed-in area, so
 * the session gate does not race the navigation to the confirmation page.
 */
export function useForgetAccount() {
  const queryClient = useQueryClient();
  return useCallback(() => {
    queryClient.clear();
    queryClient.setQueryData(meQueryOptions().queryKey, null);
  }, [queryClient]);
}
