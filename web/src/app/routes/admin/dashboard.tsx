import { AdminDashboardView } from '../../../features/admin-dashboard/components/admin-dashboard-view';

/** /admin/dashboard (SPEC §2 "Admin dashboard"). */
export default function AdminDashboardRoute() {
  return <AdminDashboardView />;
}
