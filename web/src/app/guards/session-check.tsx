import type { ReactElement } from 'react';
import { Navigate, useLocation } from 'react-router';
import { FormAlert } from '../../components/ui/form-alert';
import { LoadingText } from '../../components/ui/loading-text';
import { useUser, type SessionUser } from '../../lib/auth';
import { hadSession, loginPath } from '../../lib/session-ended';

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
    // The flag is forgotten by the login page, not here: this gate may render again while the
    // lazily loaded login page is on its way, and must then redirect to the same address
    // (docs/product.md#1012-a-session-that-ends).
    const ended = hadSession();
    return { element: <Navigate to={loginPath(`${location.pathname}${location.search}${location.hash}`, ended)} replace /> };
  }
  return { user };
}
