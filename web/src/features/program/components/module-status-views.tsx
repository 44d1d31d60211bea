import { Link } from 'react-router';
import { paths } from '@/config/paths';

function BackLink() {
  return (
    <Link to={paths.dashboard} className="pg-link">
      Back to dashboard
    </Link>
  );
}

/** 403 module_locked: says what to finish first, with a link to it. */
export function ModuleLocked({ requires }: { requires?: { slug?: string; title?: string } }) {
  return (
    <main className="pg-page pg-page--narrow">
      <section className="pg-card pg-status-card" aria-labelledby="module-locked-title">
        <div className="pg-status-card__icon" aria-hidden="true">
          {/* An SVG, not an emoji: every system can draw it. */}
          <svg
            className="pg-lock-icon"
            width="40"
            height="40"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
            focusable="false"
          >
            <rect x="4" y="11" width="16" height="10" rx="2" />
            <path d="M8 11V7a4 4 0 0 1 8 0v4" />
          </svg>
        </div>
        <h1 id="module-locked-title">This module is locked</h1>
        {requires?.slug && requires.title ? (
          <p>
            Finish{' '}
            <Link to={paths.module(requires.slug)} className="pg-link">
              {requires.title}
            </Link>{' '}
            first to unlock it.
          </p>
        ) : (
          <p>Finish the previous module first to unlock it.</p>
        )}
        <BackLink />
      </section>
    </main>
  );
}

export function ModuleNotFound() {
  return (
    <main className="pg-page pg-page--narrow">
      <section className="pg-card pg-status-card" aria-labelledby="module-missing-title">
        <h1 id="module-missing-title">Module not found</h1>
        <p>We couldn’t find this module. It may have been renamed or removed.</p>
        <BackLink />
      </section>
    </main>
  );
}

export function ModuleLoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <main className="pg-page pg-page--narrow">
      <div className="pg-card pg-failure" role="alert">
        <p>Unable to load this module right now.</p>
        <button type="button" className="pg-button" onClick={onRetry}>
          Try again
        </button>
      </div>
    </main>
  );
}
