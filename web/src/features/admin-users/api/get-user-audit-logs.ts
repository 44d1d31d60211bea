import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { USER_AUDIT_PAGE_SIZE } from '../../../../../shared/constants';
import { api, queryString } from '../../../lib/api-client';
import type { AuditEntry, Paged } from '../types';
import { userPath, userQueryOptions } from './get-user';

export const getUserAuditLogs = (id: string, page: number) =>
  api.get<Paged<AuditEntry>>(`${userPath(id)}/audit-logs${queryString({ page, page_size: USER_AUDIT_PAGE_SIZE })}`);

export const userAuditLogsQueryOptions = (id: string, page: number) =>
  queryOptions({
    queryKey: [...userQueryOptions(id).queryKey, 'audit', page],
    queryFn: () => getUserAuditLogs(id, page),
    placeholderData: keepPreviousData,
  });

export const useUserAuditLogs = (id: string, page: number) => useQuery(userAuditLogsQueryOptions(id, page));
