import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useRemovePasskeyByLink } from '../api/remove-passkey-by-link';
import '../account-security.css';

const INVALID_LINK = 'This link is not valid or has expired. Reset your password: that removes every passkey.';

/** What went wrong, in words (the `error` codes of `POST /api/auth/passkeys/removal`). */
function failure(error: unknown): string {
  const code = error instanceof ApiError ? error.code : undefined;
  if (code === 'invalid_token' || code === 'invalid_request') return INVALID_LINK;
  if (code === 'passkey_not_found') return 'This passkey was already removed.';
  return 'Unable to remove the passkey. Please try again.';
}

/**
 * The page the "this wasn't me" link of a `passkey_added` notice opens. Opening it changes
 * nothing (mail scanners follow links); one button removes the passkey and signs out every
 * session. No sign-in needed: the link's signed token names the account and the passkey.
 */
export function PasskeyRemovalConfirm({ token }: { token: string | null }) {
  const removal = useRemovePasskeyByLink();
  return (
    <main className="settings-page">
      <section className="sec-section" aria-labelledby="passkey-removal-title">
        <h1 id="passkey-removal-title">Remove a passkey</h1>
        {!token ? (
          <FormAlert>{INVALID_LINK}</FormAlert>
        ) : removal.isSuccess ? (
          <div role="status">
            <p className="sec-success">The passkey was removed and every session of your account was signed out.</p>
            <p className="sec-muted">
              If someone else knows your password, <Link to={paths.forgotPassword}>reset your password</Link> now.
            </p>
          </div>
        ) : (
          <>
            <p className="sec-muted">
              A passkey you did not add can sign in to your account. Remove it and sign out every session, including ones on your own
              devices?
            </p>
            <Button variant="danger" disabled={removal.isPending} onClick={() => removal.mutate(token)}>
              {removal.isPending ? 'Removing…' : 'Remove the passkey and sign out everywhere'}
            </Button>
            {removal.isError && <FormAlert>{failure(removal.error)}</FormAlert>}
          </>
        )}
      </section>
    </main>
  );
}
