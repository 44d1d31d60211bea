import { Navigate } from 'react-router';
import { LoginForm } from '../../features/auth/components/login-form';
import { useSignedInRedirect } from '../../features/auth/hooks/use-signed-in-redirect';

export default function LoginRoute() {
  const signedIn = useSignedInRedirect();
  if (signedIn) return <Navigate to={signedIn} replace />;
  return (
    <main className="page page--narrow">
      <h1>Log in</h1>
      <LoginForm />
    </main>
  );
}
