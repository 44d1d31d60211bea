import { Navigate } from 'react-router';
import { RegisterForm } from '../../features/auth/components/register-form';
import { useSignedInRedirect } from '../../features/auth/hooks/use-signed-in-redirect';

export default function RegisterRoute() {
  const signedIn = useSignedInRedirect();
  if (signedIn) return <Navigate to={signedIn} replace />;
  return (
    <main className="page page--narrow">
      <h1>Register</h1>
      <RegisterForm />
    </main>
  );
}
