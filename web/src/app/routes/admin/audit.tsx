import { AuditLogPage } from '@/features/admin-audit/components/audit-log-page';

/** /admin/audit (docs/product.md#2-screens-and-routes "Audit log"). */
export default function AdminAuditRoute() {
  return <AuditLogPage />;
}
