import { AdminDashboardView } from '@/features/admin-dashboard/components/admin-dashboard-view';

/** /admin/dashboard (docs/product.md#2-screens-and-routes "Admin dashboard"). */
export default function AdminDashboardRoute() {
  return <AdminDashboardView />;
}
