import { AuditLogPage } from '../../../features/admin-audit/components/audit-log-page';

/** /admin/audit (SPEC §2 "Audit log"). */
export default function AdminAuditRoute() {
  return <AuditLogPage />;
}
