import { Link } from 'react-router';
import type { OpenModule } from '@shared/program-types';
import { paths } from '@/config/paths';

/** 'Resume your next module' with what comes next, or 'All modules completed!' with the certificate (docs/product.md#2-screens-and-routes). */
export function ResumeCard({ openModule }: { openModule: OpenModule | null }) {
  return (
    <div className="pg-resume">
      <p className="pg-resume__next">
        {openModule ? `Week ${openModule.week_number} • Next up: ${openModule.title}` : 'All modules completed!'}
      </p>
      {openModule ? (
        <Link className="pg-button" to={paths.module(openModule.slug)}>
          Resume your next module
        </Link>
      ) : (
        // The certificate is what a finished learner comes for: the main action, before the spent one.
        <div className="pg-resume__actions">
          <Link className="pg-button" to={paths.certificate}>
            View your certificate
          </Link>
          <button type="button" className="pg-button pg-button--secondary" disabled>
            Resume your next module
          </button>
        </div>
      )}
      {openModule ? null : <CompletionView />}
    </div>
  );
}

/** At 100 %: what the learner finished and has in hand, not a grey button alone. */
function CompletionView() {
  return (
    <section className="pg-complete-view" aria-labelledby="program-complete-title">
      <h2 id="program-complete-title">You finished the program</h2>
      <p>Every module is done. What you built along the way is yours to keep using:</p>
      <ul>
        <li>Achievement bullets and a tailored résumé</li>
        <li>A one-line pitch and interview stories</li>
        <li>A target company list and a networking routine</li>
        <li>A plan for your first 90 days</li>
      </ul>
      <p className="pg-muted">Your answers stay saved in each module.</p>
    </section>
  );
}
