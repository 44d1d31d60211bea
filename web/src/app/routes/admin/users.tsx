import { UsersPage } from '@/features/admin-users/components/users-page';

/** /admin/users (docs/product.md#2-screens-and-routes "Admin users"). */
export default function AdminUsersRoute() {
  return <UsersPage />;
}
