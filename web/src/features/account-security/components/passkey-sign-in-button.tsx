import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import type { SessionUser } from '@/lib/auth';
import { useSignInWithPasskey } from '../api/sign-in-with-passkey';
import '../account-security.css';
import { securityErrorMessage } from '../utils/messages';

/**
 * "Sign in with a passkey" on the login page: a verified passkey replaces the password and the
 * emailed code. The page decides where to go next (`onSignedIn`).
 */
export function PasskeySignInButton({ onSignedIn }: { onSignedIn: (user: SessionUser | null) => void | Promise<void> }) {
  const signIn = useSignInWithPasskey();
  const [error, setError] = useState<string | null>(null);
  const [routing, setRouting] = useState(false);
  const start = () => {
    setError(null);
    signIn.mutate(undefined, {
      onSuccess: (result) => {
        setRouting(true);
        void onSignedIn(result.user);
      },
      onError: (failure) => setError(securityErrorMessage(failure, 'Unable to sign in with a passkey.')),
    });
  };
  const busy = signIn.isPending || routing;
  return (
    <div className="card sec-passkey-login">
      <p className="sec-divider">
        <span>or</span>
      </p>
      <FormAlert>{error}</FormAlert>
      <Button variant="secondary" className="sec-passkey-login__button" onClick={start} disabled={busy}>
        {busy ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
      </Button>
    </div>
  );
}
