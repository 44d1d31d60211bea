import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { ENROLL_REDIRECT_MS } from '../../../../../shared/constants';
import { paths } from '../../../config/paths';
import { useEnroll } from '../api/enroll';
import { serverMessage } from '../utils/api-errors';
import '../program.css';

const SUCCESS_DEFAULT = 'Welcome to the 4-Week Career Program!';
const FAILURE_DEFAULT = 'Unable to enroll in the program.';

/**
 * Enrolls on arrival, confirms, then moves on to the dashboard after ENROLL_REDIRECT_MS.
 * The ref keeps StrictMode's double effect run from enrolling twice.
 */
export function EnrollPanel() {
  const navigate = useNavigate();
  const enroll = useEnroll();
  const started = useRef(false);
  const { mutate, isSuccess } = enroll;

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mutate();
  }, [mutate]);

  useEffect(() => {
    if (!isSuccess) return;
    const timer = setTimeout(() => navigate(paths.dashboard), ENROLL_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [isSuccess, navigate]);

  const busy = enroll.isPending || enroll.isIdle;
  const message = enroll.data?.message?.trim() || SUCCESS_DEFAULT;

  return (
    <main className="pg-page pg-page--narrow">
      <section className="pg-card pg-enroll" aria-labelledby="enroll-title" aria-busy={busy}>
        <h1 id="enroll-title">Preparing your journey</h1>
        <div aria-live="polite" role="status" className="pg-enroll__status">
          {busy && (
            <p className="pg-muted">
              <span className="pg-spinner" aria-hidden="true" /> Setting up your program…
            </p>
          )}
          {enroll.isSuccess && <p className="pg-success-text">{message}</p>}
        </div>
        {enroll.isError && (
          <p className="pg-error" role="alert">
            {serverMessage(enroll.error, FAILURE_DEFAULT)}
          </p>
        )}
        <button type="button" className="pg-button" disabled={busy} onClick={() => navigate(paths.dashboard)}>
          Continue to dashboard
        </button>
      </section>
    </main>
  );
}
