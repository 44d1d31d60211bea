import { UsersPage } from '../../../features/admin-users/components/users-page';

/** /admin/users (SPEC §2 "Admin users"). */
export default function AdminUsersRoute() {
  return <UsersPage />;
}
