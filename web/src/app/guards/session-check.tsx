import { useEffect, type ReactElement } from 'react';
import { Navigate, useLocation } from 'react-router';
import { FormAlert } from '../../components/ui/form-alert';
import { LoadingText } from '../../components/ui/loading-text';
import { useUser, type SessionUser } from '../../lib/auth';
import { clearSignedIn, hadSession, loginPath } from '../../lib/session-ended';

/**
 * What both gates show before they know the user: `checkingText` while checking, an error when
 * the check itself failed (a network failure is not "signed out", so no bounce to /login), and
 * a redirect to /login when signed out. `user` is set once a signed-in user is known.
 */
export function useSessionCheck(
  checkingText: string,
): { user: SessionUser; element?: undefined } | { user?: undefined; element: ReactElement } {
  const { data: user, isPending, isError } = useUser();
  const location = useLocation();
  const signedOut = !isPending && !isError && !user;
  // Forget "this browser had a session" after the redirect is committed, never during render:
  // a render can run twice, and the second one would lose the reason (docs/journeys.md §12).
  useEffect(() => {
    if (signedOut) clearSignedIn();
  }, [signedOut]);
  if (isPending)
    return {
      element: (
        <main className="page">
          <LoadingText>{checkingText}</LoadingText>
        </main>
      ),
    };
  if (isError)
    return {
      element: (
        <main className="page">
          <FormAlert>Unable to check your session right now. Please refresh to try again.</FormAlert>
        </main>
      ),
    };
  if (!user) {
    // A browser that had a session and lost it hears why; either way the sign-in leads back here.
    const ended = hadSession();
    return { element: <Navigate to={loginPath(`${location.pathname}${location.search}${location.hash}`, ended)} replace /> };
  }
  return { user };
}
