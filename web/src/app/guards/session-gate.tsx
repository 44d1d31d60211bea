import { Navigate, Outlet } from 'react-router';
import { FormAlert } from '../../components/ui/form-alert';
import { LoadingText } from '../../components/ui/loading-text';
import { paths } from '../../config/paths';
import { useUser } from '../../lib/auth';

/**
 * Signed-in pages. A convenience only: the API refuses every call without a session anyway.
 * A network failure is not "signed out", so it does not bounce the user to /login.
 */
export default function SessionGate() {
  const { data: user, isPending, isError } = useUser();
  if (isPending)
    return (
      <main className="page">
        <LoadingText>Checking your session…</LoadingText>
      </main>
    );
  if (isError)
    return (
      <main className="page">
        <FormAlert>Unable to check your session right now. Please refresh to try again.</FormAlert>
      </main>
    );
  if (!user) return <Navigate to={paths.login} replace />;
  return <Outlet />;
}
