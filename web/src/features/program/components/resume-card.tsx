import { Link } from 'react-router';
import type { OpenModule } from '../../../../../shared/program-types';
import { paths } from '../../../config/paths';

/** 'Resume your next module' with what comes next, or 'All modules completed!' (SPEC §2). */
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
        <>
          <button type="button" className="pg-button" disabled>
            Resume your next module
          </button>
          <Link className="pg-resume__certificate" to={paths.certificate}>
            View your certificate
          </Link>
        </>
      )}
    </div>
  );
}
