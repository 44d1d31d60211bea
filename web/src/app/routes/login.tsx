import { useNavigate } from 'react-router';
import { PasskeySignInButton } from '../../features/account-security/components/passkey-sign-in-button';
import { postLoginDestination } from '../../features/auth/api/post-login-destination';
import { LoginForm } from '../../features/auth/components/login-form';

export default function LoginRoute() {
  const navigate = useNavigate();
  return (
    <main className="page page--narrow">
      <h1>Log in</h1>
      <LoginForm />
      <PasskeySignInButton onSignedIn={async (user) => navigate(await postLoginDestination(user), { replace: true })} />
    </main>
  );
}
