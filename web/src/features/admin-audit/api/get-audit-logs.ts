import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, queryString } from '@/lib/api-client';
import type { AuditEntry, ListPage } from '@shared/admin-types';

export type AuditLogEntry = AuditEntry;

export type AuditLogPage = ListPage<AuditLogEntry>;

export interface AuditFilters {
  actor: string;
  entity_type: string;
  entity_id: string;
  action: string;
  date_from: string;
  date_to: string;
}

export interface AuditLogParams extends AuditFilters {
  page: number;
  /** the page's cursor (from the previous page's next_cursor); page 1 has none */
  cursor?: string;
  pageSize: number;
}

export const getAuditLogs = ({ page, pageSize, cursor, ...filters }: AuditLogParams) =>
  api.get<AuditLogPage>(`/api/admin/audit-logs${queryString({ page, page_size: pageSize, cursor, ...filters })}`);

export const auditLogsQueryOptions = (params: AuditLogParams) =>
  queryOptions({
    queryKey: ['admin', 'audit-logs', params],
    queryFn: () => getAuditLogs(params),
    placeholderData: keepPreviousData,
  });

export const useAuditLogs = (params: AuditLogParams) => useQuery(auditLogsQueryOptions(params));
