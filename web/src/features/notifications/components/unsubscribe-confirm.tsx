import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { useUnsubscribe } from '../api/unsubscribe';
import '../notifications.css';

/** What went wrong, in words (the API's `error` codes of docs/product.md#unsubscribe). */
function failure(error: unknown): string {
  const code = error instanceof ApiError ? error.code : undefined;
  if (code === 'invalid_token' || code === 'missing_token')
    return 'This unsubscribe link is not valid. You can turn reminders off in Settings.';
  if (code === 'not_found') return 'This account no longer exists, so it gets no reminders.';
  return 'Unable to stop the reminders. Please try again.';
}

/**
 * The page a reminder's "Stop these reminders" link opens (via the API's GET, which changes
 * nothing: mail scanners follow links). One button confirms; no sign-in needed, the link's
 * signed token names the account.
 */
export function UnsubscribeConfirm({ token }: { token: string | null }) {
  const stop = useUnsubscribe();
  return (
    <main className="settings-page">
      <section className="np-card" aria-labelledby="unsubscribe-title">
        <h1 id="unsubscribe-title">Reminder emails</h1>
        {!token ? (
          <p className="np-error" role="alert">
            This unsubscribe link is not valid. You can turn reminders off in Settings.
          </p>
        ) : stop.isSuccess ? (
          <div role="status">
            <p className="np-success">Reminders stopped. You will get no more reminder emails.</p>
            <p className="np-note">
              Changed your mind? Choose Daily or Weekly in <Link to={paths.settings}>Settings</Link>.
            </p>
          </div>
        ) : (
          <>
            <p className="np-muted">Stop the reminder emails about your next module? Nothing else changes in your account.</p>
            <button type="button" className="np-button" disabled={stop.isPending} onClick={() => stop.mutate(token)}>
              {stop.isPending ? 'Stopping…' : 'Stop these reminders'}
            </button>
            {stop.isError && (
              <p className="np-error" role="alert">
                {failure(stop.error)}
              </p>
            )}
          </>
        )}
      </section>
    </main>
  );
}
