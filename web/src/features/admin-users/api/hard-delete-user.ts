import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, queryString } from '@/lib/api-client';
import { usersListQueryKey } from './get-users';
import { userPath, userQueryOptions } from './get-user';

/** `deleted: false, status: 'purging'` (202): a heavy account's purge goes on in the background. */
export interface HardDeleteResult {
  deleted: boolean;
  status: 'purging' | 'done';
}

export const hardDeleteUser = (id: string, confirmEmail: string) =>
  api.delete<HardDeleteResult | undefined>(`${userPath(id)}${queryString({ confirm_email: confirmEmail })}`);

export function useHardDeleteUser(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (confirmEmail: string) => hardDeleteUser(id, confirmEmail),
    onSuccess: () => {
      // The user is gone: drop its cached detail rather than refetching a 404.
      queryClient.removeQueries({ queryKey: userQueryOptions(id).queryKey });
      return queryClient.invalidateQueries({ queryKey: usersListQueryKey });
    },
  });
}
