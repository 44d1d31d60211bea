import { Navigate } from 'react-router';
import { FormAlert } from '../../components/ui/form-alert';
import { LoadingText } from '../../components/ui/loading-text';
import { paths } from '../../config/paths';
import { isAdmin, useUser } from '../../lib/auth';
import { AdminLayout } from '../layouts/admin-layout';

/** Admin pages: signed out → /login; signed in without the admin role → an explanation. */
export default function AdminGate() {
  const { data: user, isPending, isError } = useUser();
  if (isPending)
    return (
      <main className="page">
        <LoadingText>Checking admin permissions…</LoadingText>
      </main>
    );
  if (isError)
    return (
      <main className="page">
        <FormAlert>Unable to check your session right now. Please refresh to try again.</FormAlert>
      </main>
    );
  if (!user) return <Navigate to={paths.login} replace />;
  if (!isAdmin(user))
    return (
      <main className="page">
        <h1>Admin access required</h1>
        <p>Your account does not have administrator privileges.</p>
      </main>
    );
  return <AdminLayout />;
}
