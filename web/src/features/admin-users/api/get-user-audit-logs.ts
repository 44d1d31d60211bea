import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { USER_AUDIT_PAGE_SIZE } from '@shared/constants';
import { api, queryString } from '@/lib/api-client';
import type { AuditEntry, ListPage } from '@shared/admin-types';
import { userPath, userQueryOptions } from './get-user';

/** `cursor`: the previous page's next_cursor (page 1 has none). */
export const getUserAuditLogs = (id: string, page: number, cursor?: string) =>
  api.get<ListPage<AuditEntry>>(`${userPath(id)}/audit-logs${queryString({ page, page_size: USER_AUDIT_PAGE_SIZE, cursor })}`);

export const userAuditLogsQueryOptions = (id: string, page: number, cursor?: string) =>
  queryOptions({
    queryKey: [...userQueryOptions(id).queryKey, 'audit', page, cursor],
    queryFn: () => getUserAuditLogs(id, page, cursor),
    placeholderData: keepPreviousData,
  });

export const useUserAuditLogs = (id: string, page: number, cursor?: string) => useQuery(userAuditLogsQueryOptions(id, page, cursor));
