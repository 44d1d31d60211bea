import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, queryString } from '../../../lib/api-client';
import type { AuditEntry } from '../../../../../shared/admin-types';

export type AuditLogEntry = AuditEntry;

export interface AuditLogPage {
  items: AuditLogEntry[];
  total: number;
  has_next: boolean;
}

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
  pageSize: number;
}

export const getAuditLogs = ({ page, pageSize, ...filters }: AuditLogParams) =>
  api.get<AuditLogPage>(`/api/admin/audit-logs${queryString({ page, page_size: pageSize, ...filters })}`);

export const auditLogsQueryOptions = (params: AuditLogParams) =>
  queryOptions({
    queryKey: ['admin', 'audit-logs', params],
    queryFn: () => getAuditLogs(params),
    placeholderData: keepPreviousData,
  });

export const useAuditLogs = (params: AuditLogParams) => useQuery(auditLogsQueryOptions(params));
