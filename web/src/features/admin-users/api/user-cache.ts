import type { QueryClient } from '@tanstack/react-query';
import { usersListQueryKey } from './get-users';
import { userQueryOptions } from './get-user';

/** After any change to a user: its detail (with audit and preview) and every list page are stale. */
export const invalidateUser = (queryClient: QueryClient, id: string) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: userQueryOptions(id).queryKey }),
    queryClient.invalidateQueries({ queryKey: usersListQueryKey }),
  ]);
