import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userPath, userQueryOptions } from './get-user';
import { invalidateUser } from './user-cache';

/** A passkey of the user as `GET /api/admin/users/{id}/passkeys` lists it. */
export interface UserPasskey {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  backed_up: boolean;
}

// Under the user's detail key: every change to the user refreshes the list too.
const passkeysQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...userQueryOptions(id).queryKey, 'passkeys'],
    queryFn: () => api.get<{ items: UserPasskey[] }>(`${userPath(id)}/passkeys`),
  });

export const useUserPasskeys = (id: string, enabled: boolean) => useQuery({ ...passkeysQueryOptions(id), enabled });

export function useRemoveUserPasskey(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (passkeyId: string) => api.delete<{ ok: boolean }>(`${userPath(id)}/passkeys/${encodeURIComponent(passkeyId)}`),
    onSettled: () => invalidateUser(queryClient, id),
  });
}
