import { Navigate } from 'react-router';
import { DEFAULT_PROGRAM_TITLE } from '@shared/constants';
import { useUser } from '@/lib/auth';
import { useDashboard } from '../api/get-dashboard';
import { useDashboardState } from '../api/get-dashboard-state';
import { learnerRedirect } from '../utils/api-errors';
import { greetingName } from '../utils/greeting';
import { AccountSnapshot } from './account-snapshot';
import { ProgramProgress } from './program-progress';
import { ProgressBar } from './progress-bar';
import { ResumeCard } from './resume-card';
import '../program.css';

function Loading({ children }: { children: string }) {
  return (
    <p className="pg-muted" role="status" aria-live="polite">
      <span className="pg-spinner" aria-hidden="true" /> {children}
    </p>
  );
}

/** The learner dashboard (docs/product.md#2-screens-and-routes "Learner dashboard"). */
export function DashboardView() {
  const { data: user } = useUser();
  const summary = useDashboard();
  const state = useDashboardState();

  // 401/403 → login, 404 (not enrolled) → enroll, from either call (docs/product.md#4-states-and-transitions).
  const redirect = learnerRedirect(summary.error) ?? learnerRedirect(state.error);
  if (redirect) return <Navigate to={redirect} replace />;

  if (summary.isError || state.isError) {
    return (
      <main className="pg-page">
        <div className="pg-card pg-failure" role="alert">
          <p>Unable to load your dashboard right now. Please refresh to try again.</p>
          <button
            type="button"
            className="pg-button"
            onClick={() => {
              if (summary.isError) void summary.refetch();
              if (state.isError) void state.refetch();
            }}
          >
            Refresh
          </button>
        </div>
      </main>
    );
  }

  if (summary.isPending) {
    return (
      <main className="pg-page">
        <Loading>Loading your dashboard…</Loading>
      </main>
    );
  }

  const percent = summary.data.percent_complete ?? state.data?.percent_complete;
  return (
    <main className="pg-page">
      <header className="pg-hero">
        <h1>{`Welcome, ${greetingName(user)}!`}</h1>
        <p className="pg-hero__program">{`Program: ${summary.data.program_title?.trim() || DEFAULT_PROGRAM_TITLE}`}</p>
        <ProgressBar percent={percent} />
        {/* One slot, the same height loading or loaded (docs/lean-builds.md: no layout shift). */}
        <div className="pg-resume-slot">
          {state.isPending ? <Loading>Preparing your dashboard…</Loading> : <ResumeCard openModule={state.data.open_module} />}
        </div>
      </header>
      {/* The cards below the hero appear together once the state is in: nothing on screen moves. */}
      {state.isPending ? null : (
        <div className="pg-columns">
          <ProgramProgress grid={state.data.grid} />
          <AccountSnapshot user={user} />
        </div>
      )}
    </main>
  );
}
