import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, queryString } from '@/lib/api-client';
import type { AdminUserListItem, ListPage } from '@shared/admin-types';

export interface UsersListParams {
  page: number;
  /** the page's cursor (from the previous page's next_cursor); page 1 has none */
  cursor?: string;
  pageSize: number;
  query: string;
  filter: string;
  status: string;
  /** a module id: only the learners stalled there (never with a query or filter) */
  stalledAt?: string;
}

/** Every list page shares this prefix, so one invalidation refreshes whichever page is shown. */
export const usersListQueryKey = ['admin', 'users', 'list'] as const;

export const getUsers = ({ page, cursor, pageSize, query, filter, status, stalledAt }: UsersListParams) =>
  api.get<ListPage<AdminUserListItem>>(
    `/api/admin/users${queryString({ page, page_size: pageSize, cursor, query, filter, status, stalled_at: stalledAt })}`,
  );

export const usersQueryOptions = (params: UsersListParams) =>
  queryOptions({
    queryKey: [...usersListQueryKey, params],
    queryFn: () => getUsers(params),
    // Keep the current rows on screen while the next page loads instead of flashing empty.
    placeholderData: keepPreviousData,
  });

export const useUsers = (params: UsersListParams) => useQuery(usersQueryOptions(params));
