import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { ModuleLink } from '@shared/program-types';
import { paths } from '@/config/paths';

/**
 * Shown once a module is completed: the way on to the next module, or back to the dashboard at
 * the end of the program. Takes focus when the learner has just finished, so screen reader and
 * keyboard users land on it.
 */
export function ModuleCompletePanel({
  title,
  nextModule,
  justCompleted,
  programTitle,
}: {
  title: string;
  nextModule: ModuleLink | null;
  justCompleted: boolean;
  programTitle: string;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (justCompleted) heading.current?.focus();
  }, [justCompleted]);

  return (
    <section className="pg-card pg-complete" aria-labelledby="module-complete-title">
      <div className="pg-complete__icon" aria-hidden="true">
        ✓
      </div>
      <div className="pg-complete__body">
        <h2 id="module-complete-title" ref={heading} tabIndex={-1}>
          {justCompleted ? 'Module complete!' : 'You completed this module'}
        </h2>
        {nextModule ? (
          <>
            <p>{`Great work on ${title}. Up next in Week ${nextModule.week_number}: ${nextModule.title}.`}</p>
            <Link className="pg-button" to={paths.module(nextModule.slug)}>
              Continue to next module
            </Link>
          </>
        ) : (
          <>
            <p>{`That was the last module. You have finished the ${programTitle}.`}</p>
            <Link className="pg-button" to={paths.dashboard}>
              Back to dashboard
            </Link>
          </>
        )}
      </div>
    </section>
  );
}
