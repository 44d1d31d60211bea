import { queryString } from '@/lib/api-client';
import type { AuditFilters } from './get-audit-logs';

/** `GET /api/admin/audit-logs/export.csv`: the audit log with the screen's filters, as a CSV file. */
export const exportAuditCsvPath = (filters: AuditFilters) => `/api/admin/audit-logs/export.csv${queryString({ ...filters })}`;
