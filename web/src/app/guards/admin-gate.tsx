import { isAdmin } from '../../lib/auth';
import { AdminLayout } from '../layouts/admin-layout';
import { useSessionCheck } from './session-check';

/** Admin pages: signed out → /login; signed in without the admin role → an explanation. */
export default function AdminGate() {
  const { user, element } = useSessionCheck('Checking admin permissions…');
  if (element) return element;
  if (!isAdmin(user))
    return (
      <main className="page">
        <h1>Admin access required</h1>
        <p>Your account does not have administrator privileges.</p>
      </main>
    );
  return <AdminLayout />;
}
