import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { FormAlert } from '../../components/ui/form-alert';
import { PasskeySignInButton } from '../../features/account-security/components/passkey-sign-in-button';
import { postLoginDestination } from '../../features/auth/api/post-login-destination';
import { LoginForm } from '../../features/auth/components/login-form';
import { useSignedInRedirect } from '../../features/auth/hooks/use-signed-in-redirect';
import { meQueryOptions } from '../../lib/auth';
import { clearSignedIn, ENDED_REASON, safeReturnPath, SESSION_ENDED_TEXT } from '../../lib/session-ended';

export default function LoginRoute() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const ended = params.get('reason') === ENDED_REASON;
  const returnTo = safeReturnPath(params.get('next'));
  const queryClient = useQueryClient();
  const signedIn = useSignedInRedirect(ended);

  useEffect(() => {
    // The server said the session is gone: the header must stop naming the old user, and the
    // browser no longer "had a session" (the gate that sent us here keeps the flag until now).
    if (ended) {
      queryClient.setQueryData(meQueryOptions().queryKey, null);
      clearSignedIn();
    }
  }, [ended, queryClient]);

  if (signedIn) return <Navigate to={returnTo ?? signedIn} replace />;
  return (
    <main className="page page--narrow">
      <h1>Log in</h1>
      {ended ? <FormAlert tone="info">{SESSION_ENDED_TEXT}</FormAlert> : null}
      <LoginForm returnTo={returnTo} />
      <PasskeySignInButton onSignedIn={async (user) => navigate(returnTo ?? (await postLoginDestination(user)), { replace: true })} />
    </main>
  );
}
