import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, queryString } from '../../../lib/api-client';
import type { AuditEntry } from '../../../../../shared/admin-types';

export type AuditLogEntry = AuditEntry;

export interface AuditLogPage {
  items: AuditLogEntry[];
  total: number;
  has_next: boolean;
  /** opaque; send as `cursor` for the next page (null on the last page) */
  next_cursor?: string | null;
  /** `total` is a bound, not an exact count */
  total_is_estimate?: boolean;
  /** the page stopped at the server's read budget before it was full: Next continues */
  truncated?: boolean;
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
