import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { ENROLL_REDIRECT_MS } from '@shared/constants';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { isAdmin, useUser } from '@/lib/auth';
import { useEnroll } from '../api/enroll';
import { serverMessage } from '../utils/api-errors';
import '../program.css';

const SUCCESS_DEFAULT = 'Welcome to the 4-Week Career Program!';
const FAILURE_DEFAULT = 'Unable to enroll in the program.';

/**
 * Enrolls a learner on arrival, confirms, then moves on to the dashboard after ENROLL_REDIRECT_MS
 * (the ref keeps StrictMode's double effect run from enrolling twice). An admin is not enrolled
 * by arriving here: they get an explicit "Preview the program as a learner" choice.
 */
export function EnrollPanel() {
  const { data: user, isPending: userPending } = useUser();
  // Nobody is enrolled by opening a page: an admin is offered a preview instead (docs/product.md#10-journeys).
  if (isAdmin(user)) return <StaffPreviewOffer />;
  // Until the session is known (and while it is signed out) the page shows its busy state and enrolls nobody.
  return <LearnerEnroll ready={!userPending && user != null} />;
}

export const PREVIEW_LABEL = 'Preview the program as a learner';

function StaffPreviewOffer() {
  const navigate = useNavigate();
  const enroll = useEnroll();
  const { isSuccess } = enroll;

  useEffect(() => {
    if (!isSuccess) return;
    const timer = setTimeout(() => void navigate(paths.dashboard), ENROLL_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [isSuccess, navigate]);

  return (
    <main className="pg-page pg-page--narrow">
      <section className="pg-card pg-enroll" aria-labelledby="enroll-title" aria-busy={enroll.isPending}>
        <h1 id="enroll-title">Preparing your journey</h1>
        <p>
          You are signed in as an administrator, so opening a learner page does not enroll you. You can preview the program as a learner
          sees it; a preview never counts in the learner metrics.
        </p>
        <div aria-live="polite" role="status" className="pg-enroll__status">
          {enroll.isSuccess && <p className="pg-success-text">{enroll.data?.message?.trim() || SUCCESS_DEFAULT}</p>}
        </div>
        {enroll.isError && (
          <p className="pg-error" role="alert">
            {serverMessage(enroll.error, FAILURE_DEFAULT)}
          </p>
        )}
        <div className="pg-enroll__actions">
          <button
            type="button"
            className="pg-button"
            disabled={enroll.isPending || enroll.isSuccess}
            onClick={() => enroll.mutate({ preview: true })}
          >
            {enroll.isPending ? 'Starting the preview…' : PREVIEW_LABEL}
          </button>
          <Link to={paths.admin.dashboard}>Back to the admin dashboard</Link>
        </div>
      </section>
    </main>
  );
}

function LearnerEnroll({ ready }: { ready: boolean }) {
  const navigate = useNavigate();
  const enroll = useEnroll();
  const started = useRef(false);
  const { mutate, isSuccess } = enroll;

  useEffect(() => {
    if (!ready || started.current) return;
    started.current = true;
    mutate();
  }, [mutate, ready]);

  useEffect(() => {
    if (!isSuccess) return;
    const timer = setTimeout(() => void navigate(paths.dashboard), ENROLL_REDIRECT_MS);
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
